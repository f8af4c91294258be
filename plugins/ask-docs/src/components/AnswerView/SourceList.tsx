import { useContext } from 'react';
import List from '@material-ui/core/List';
import ListItem from '@material-ui/core/ListItem';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import { Link } from '@backstage/core-components';
import type { AnswerSource } from '@askdocs/plugin-ask-docs-common';
import { usePortalLink } from '../../hooks/usePortalLink';
import { SectionHeadingLevel } from '../headingLevel';

/** What the source and evidence lists need from a passage (a source or evidence chunk). */
export type Passage = Pick<
  AnswerSource,
  'title' | 'sectionPath' | 'snippet' | 'url' | 'entityRef'
>;

const useStyles = makeStyles(theme => ({
  item: { display: 'block', paddingLeft: 0, paddingRight: 0 },
  section: { color: theme.palette.text.secondary },
  snippet: {
    color: theme.palette.text.secondary,
    whiteSpace: 'pre-wrap',
    marginTop: theme.spacing(0.5),
  },
}));

/** The section path without its leading document title (shown beside it, not twice). */
export function sectionOf(
  passage: Pick<Passage, 'title' | 'sectionPath'>,
): string {
  const prefix = `${passage.title} › `;
  if (passage.sectionPath === passage.title) return '';
  return passage.sectionPath.startsWith(prefix)
    ? passage.sectionPath.slice(prefix.length)
    : passage.sectionPath;
}

export interface SourceListProps {
  passages: Passage[];
  testId: string;
  /** Announces the list, e.g. "Sources". */
  heading: string;
}

/** Sources or evidence: title linking to the page at the section anchor, section path, snippet. */
export function SourceList(props: SourceListProps) {
  const classes = useStyles();
  const link = usePortalLink();
  const heading = useContext(SectionHeadingLevel);
  if (props.passages.length === 0) return null;
  return (
    <div data-testid={props.testId}>
      <Typography variant="subtitle2" component={heading}>
        {props.heading}
      </Typography>
      <List dense disablePadding>
        {props.passages.map((passage, index) => {
          const section = sectionOf(passage);
          return (
            <ListItem
              key={`${passage.url}-${index}`}
              className={classes.item}
              data-testid="ask-docs-source"
            >
              <Typography variant="body2" component="div">
                <Link to={link(passage.url)}>{passage.title}</Link>
                {section && (
                  <span className={classes.section}> › {section}</span>
                )}
              </Typography>
              {passage.snippet && (
                <Typography
                  variant="body2"
                  component="blockquote"
                  className={classes.snippet}
                  style={{ margin: 0 }}
                >
                  {passage.snippet}
                </Typography>
              )}
            </ListItem>
          );
        })}
      </List>
    </div>
  );
}
