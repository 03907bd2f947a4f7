// The log levels an adapter's health item reports, in the service's `{ console, file, syslog }`:
// the fields the vendor MCP server's LoggerConfig requires (itential-mcp models/health.py: console
// and file strings, syslog a string or a dict), read from the service config's loggerProps where
// they set them (console_level, log_level, syslog), else the console's own levels.
import { describe, expect, it } from 'vitest';
import { adapterLogger } from '../../core/adapters/entry';

const consoleLevels = { console: 'warn', file: 'info', syslog: {} };

describe('adapterLogger', () => {
  it("answers the console's levels for a service config without loggerProps", () => {
    expect(adapterLogger(undefined, consoleLevels)).toEqual(consoleLevels);
  });

  it("reads console_level, log_level and syslog from the service config's loggerProps", () => {
    const loggerProps = { description: 'Logging', log_level: 'debug', console_level: 'spam', log_filename: 'adapter.log', syslog: { level: 'warning', host: '127.0.0.1' } };
    expect(adapterLogger(loggerProps, consoleLevels)).toEqual({ console: 'spam', file: 'debug', syslog: { level: 'warning', host: '127.0.0.1' } });
  });

  it("keeps the console's level for what loggerProps leave unset, and the defaults where no levels are given", () => {
    expect(adapterLogger({ log_level: 'error', syslog: 42 }, consoleLevels)).toEqual({ console: 'warn', file: 'error', syslog: {} });
    expect(adapterLogger({})).toEqual({ console: 'warn', file: 'info', syslog: {} });
  });
});
