import { ConfigReader } from '@backstage/config';
import { JsonObject } from '@backstage/types';
import { readPluginSettings } from './settings';

const read = (askDocs: JsonObject) =>
  readPluginSettings(new ConfigReader({ askDocs }));

describe('visibility sync and retention settings', () => {
  it('defaults: sync every 30 s, stale after 90 s, chunk versions kept 90 days', () => {
    const settings = read({});
    expect(settings.visibilitySync).toEqual({
      enabled: true,
      frequency: { seconds: 30 },
      maxStalenessSeconds: 90,
    });
    expect(settings.chunkVersionRetentionDays).toBe(90);
  });

  it('reads configured values', () => {
    const settings = read({
      visibilitySync: { frequency: { seconds: 10 }, maxStaleness: { minutes: 1 }, enabled: false },
      retention: { chunkVersionsDays: 30 },
    });
    expect(settings.visibilitySync).toEqual({
      enabled: false,
      frequency: { seconds: 10 },
      maxStalenessSeconds: 60,
    });
    expect(settings.chunkVersionRetentionDays).toBe(30);
  });

  it('refuses a staleness bound that one sync interval would exceed, and bad retention', () => {
    expect(() =>
      read({ visibilitySync: { frequency: { minutes: 2 }, maxStaleness: { seconds: 90 } } }),
    ).toThrow(/maxStaleness \(90 s\) must be longer than frequency \(120 s\)/);
    expect(() => read({ retention: { chunkVersionsDays: 0 } })).toThrow(/chunkVersionsDays/);
  });
});
