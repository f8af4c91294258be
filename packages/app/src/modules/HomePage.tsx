import { Content, InfoCard, Link } from '@backstage/core-components';
import { Grid, Typography } from '@material-ui/core';

/** Where a newcomer to the portal goes next; paths are the plugins' default page paths. */
export const HOME_DESTINATIONS = [
  {
    title: 'Ask the docs',
    path: '/ask-docs',
    text: 'Ask a question and get an answer cited from the documentation you may read.',
  },
  {
    title: 'Software catalog',
    path: '/catalog',
    text: 'Browse the components, systems, APIs and teams the answers come from.',
  },
  {
    title: 'Documentation',
    path: '/docs',
    text: 'Read the TechDocs sites directly.',
  },
] as const;

export function HomePage() {
  return (
    <Content>
      <Grid container spacing={3}>
        {HOME_DESTINATIONS.map(d => (
          <Grid item xs={12} md={4} key={d.path}>
            <InfoCard title={d.title}>
              <Typography paragraph>{d.text}</Typography>
              <Link
                to={d.path}
                data-testid={`home-link${d.path.replace('/', '-')}`}
              >
                Open {d.title}
              </Link>
            </InfoCard>
          </Grid>
        ))}
      </Grid>
    </Content>
  );
}
