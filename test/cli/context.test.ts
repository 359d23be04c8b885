import { describe, expect, it } from 'vitest';
import { colourEnabled, colourFlag } from '../../src/cli/context.js';

const tty = { write: () => true, isTTY: true };
const pipe = { write: () => true, isTTY: false };

describe('cli/context colourEnabled', () => {
  it('colours a terminal and not a pipe when nothing else says otherwise', () => {
    expect(colourEnabled(tty, {})).toBe(true);
    expect(colourEnabled(pipe, {})).toBe(false);
    expect(colourEnabled(tty, { TERM: 'dumb' })).toBe(false);
  });

  it('turns colour off on a terminal for any non-empty NO_COLOR, and ignores an empty one', () => {
    expect(colourEnabled(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colourEnabled(tty, { NO_COLOR: 'false' })).toBe(false);
    expect(colourEnabled(tty, { NO_COLOR: '' })).toBe(true);
  });

  it('forces colour with FORCE_COLOR, and turns it off on a terminal with FORCE_COLOR=0', () => {
    expect(colourEnabled(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(colourEnabled(pipe, { FORCE_COLOR: '' })).toBe(true);
    expect(colourEnabled(tty, { FORCE_COLOR: '0' })).toBe(false);
    expect(colourEnabled(tty, { FORCE_COLOR: 'false' })).toBe(false);
  });

  it('lets --color / --no-color decide over the environment and the terminal', () => {
    expect(colourEnabled(pipe, { NO_COLOR: '1' }, true)).toBe(true);
    expect(colourEnabled(tty, { FORCE_COLOR: '1' }, false)).toBe(false);
  });
});

describe('cli/context colourFlag', () => {
  it('takes the last of --color and --no-color, and undefined without either', () => {
    const opt = (name: string) => ({ kind: 'option', name });
    expect(colourFlag([opt('color'), opt('no-color')])).toBe(false);
    expect(colourFlag([opt('no-color'), opt('color')])).toBe(true);
    expect(colourFlag([opt('strict'), { kind: 'positional' }])).toBeUndefined();
  });
});
