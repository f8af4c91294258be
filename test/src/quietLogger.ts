import { LoggerService } from '@backstage/backend-plugin-api';

/** A LoggerService for scripts: counts what was logged, prints only errors unless `verbose`. */
export function quietLogger(
  options: { verbose?: boolean } = {},
): LoggerService & { counts: Record<string, number> } {
  const counts: Record<string, number> = {
    error: 0,
    warn: 0,
    info: 0,
    debug: 0,
  };
  const log = (level: string) => (message: string) => {
    counts[level] += 1;
    if (level === 'error' || options.verbose)
      process.stderr.write(`[${level}] ${message}\n`);
  };
  const logger = {
    counts,
    error: log('error'),
    warn: log('warn'),
    info: log('info'),
    debug: log('debug'),
    child: () => logger,
  };
  return logger;
}
