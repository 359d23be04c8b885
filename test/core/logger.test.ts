import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.js';
import { Redactor } from '../../src/core/redact.js';
import { recordingLogger } from './support.js';

describe('core/logger', () => {
  it('writes only lines at the level or above', () => {
    const sink = recordingLogger();
    const log = createLogger(sink, 'info');
    log.debug('d');
    log.info('i');
    log.warn('w');
    log.error('e');
    expect(sink.lines.map((l) => l.split(' ')[0])).toEqual(['info', 'warn', 'error']);
  });

  it('writes nothing when off', () => {
    const sink = recordingLogger();
    const log = createLogger(sink, 'off');
    log.error('e');
    expect(sink.lines).toEqual([]);
  });

  it("prefixes lines and scrubs the client's secrets from the message and arguments", () => {
    const sink = recordingLogger();
    createLogger(sink, 'debug', new Redactor(['super-secret-value-42'])).warn('key super-secret-value-42 used', { header: 'super-secret-value-42' });
    expect(sink.lines[0]).toContain('[invoicing-sdk] key [REDACTED] used');
    expect(sink.lines[0]).not.toContain('super-secret-value-42');
  });

  it('never lets a broken logger break the caller', () => {
    const broken = { debug: () => { throw new Error('x'); }, info: () => undefined, warn: () => undefined, error: () => undefined };
    expect(() => createLogger(broken, 'debug').debug('line')).not.toThrow();
  });
});
