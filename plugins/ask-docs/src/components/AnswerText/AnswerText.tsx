import { Fragment } from 'react';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import { Link } from '@backstage/core-components';
import type { AnswerSource } from '@askdocs/plugin-ask-docs-common';
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

export interface AnswerTextProps {
  text: string;
  sources: AnswerSource[];
}

/** Answer prose with its [Title] markers turned into links to the cited sources. */
export function AnswerText(props: AnswerTextProps) {
  const classes = useStyles();
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
                    to={item.url ?? item.source.url}
                    className={classes.citation}
                    // Names the section only when the link opens the source's own passage.
                    title={
                      item.url !== undefined && item.url !== item.source.url
                        ? item.source.title
                        : item.source.sectionPath
                        ? `${item.source.title} › ${item.source.sectionPath}`
                        : item.source.title
                    }
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
