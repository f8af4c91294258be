import { useMemo } from 'react';
import {
  coreApis,
  useApi,
  useTranslationRef,
} from '@backstage/frontend-plugin-api';
import { askDocsTranslationRef } from '../translation';

/** Window sizes a person names: whole days (from two), hours, minutes, else seconds. */
const UNITS: Array<[seconds: number, unit: string, from: number]> = [
  [86_400, 'day', 2 * 86_400],
  [3_600, 'hour', 3_600],
  [60, 'minute', 60],
];

/**
 * The user's own variant of the app's language (en-GB, de-AT) when the browser offers one, so an
 * English app shows a British user day-first dates as before; the app's language otherwise.
 */
function localeFor(language: string): string {
  const preferred =
    typeof navigator === 'undefined' ? [] : navigator.languages ?? [];
  const own = preferred.find(l => l.split('-')[0] === language.split('-')[0]);
  const locale = own ?? language;
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? 'en';
  } catch {
    // A malformed tag in the app's config (en_US) must not take the component down.
    return 'en';
  }
}

/** Dates, numbers and durations in the app's language, like the texts around them. */
export function useLocaleFormat() {
  // Re-renders on a language change, as the translations do.
  useTranslationRef(askDocsTranslationRef);
  const { language } = useApi(coreApis.appLanguage).getLanguage();
  return useMemo(() => {
    const locale = localeFor(language);
    return {
      /** An ISO timestamp as date and time; one that does not parse stays as it is. */
      dateTime(iso: string): string {
        const date = new Date(iso);
        return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(locale);
      },
      number: (value: number) => value.toLocaleString(locale),
      /** A whole number of seconds in its largest unit: "24 hours", "2 dny", "90 seconds". */
      duration(seconds: number): string {
        const [size, unit] = UNITS.find(
          ([s, , from]) => seconds >= from && seconds % s === 0,
        ) ?? [1, 'second'];
        return new Intl.NumberFormat(locale, {
          style: 'unit',
          unit,
          unitDisplay: 'long',
        }).format(seconds / size);
      },
    };
  }, [language]);
}
