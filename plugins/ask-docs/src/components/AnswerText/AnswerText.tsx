import { Fragment } from 'react';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import { Link } from '@backstage/core-components';
import type { AnswerSource } from '@askdocs/plugin-ask-docs-common';
import { usePortalLink } from '../../hooks/usePortalLink';
import { sectionOf } from '../AnswerView/SourceList';
import { linkCitations } from './linkCitations';

const useStyles = makeStyles(theme => ({
  text: { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' },
  citation: { fontWeight: theme.typography.fontWeightMedium as number },
  code: {
    fontFamily: 'monospace',
    fontSize: '0.9em',
    padding: theme.spacing(0, 0.5),
    borderRadius: theme.shape.borderRadius,
    backgroundColor: theme.palette.action.hover,
  },
}));

/** Prose with `inline code` set in monospace; everything else stays literal text. */
function Prose(props: { text: string; codeClassName: string }) {
  const parts = props.text.split(/`([^`\n]+)`/);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <code key={i} className={props.codeClassName}>
            {part}
          </code>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}

/** Names the section only when the link opens the source's own passage. */
function citationTitle(source: AnswerSource, url?: string): string {
  const section =
    url === undefined || url === source.url ? sectionOf(source) : '';
  return section ? `${source.title} › ${section}` : source.title;
}

export interface AnswerTextProps {
  text: string;
  sources: AnswerSource[];
}

/** Answer prose with its [Title] markers turned into links to the cited sources. */
export function AnswerText(props: AnswerTextProps) {
  const classes = useStyles();
  const link = usePortalLink();
  const segments = linkCitations(props.text, props.sources);
  return (
    <Typography
      component="div"
      variant="body1"
      className={classes.text}
      data-testid="ask-docs-answer-text"
    >
      {segments.map((segment, index) => {
        if (segment.kind === 'text') {
          return (
            <Prose
              key={index}
              text={segment.text}
              codeClassName={classes.code}
            />
          );
        }
        return (
          <span key={index} data-testid="ask-docs-citation">
            [
            {segment.items.map((item, itemIndex) => (
              <Fragment key={itemIndex}>
                {itemIndex > 0 && '; '}
                {item.source ? (
                  <Link
                    to={link(item.url ?? item.source.url)}
                    className={classes.citation}
                    title={citationTitle(item.source, item.url)}
                  >
                    {item.label}
                  </Link>
                ) : (
                  item.label
                )}
              </Fragment>
            ))}
            ]
          </span>
        );
      })}
    </Typography>
  );
}
