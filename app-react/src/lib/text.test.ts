import { counted, sentence, wholeNumber } from './text';

describe('sentence', () => {
  it('ends a sentence with one full stop, after a name that already ends with one', () => {
    expect(sentence('The team is now called Stitch & Thread Co.')).toBe('The team is now called Stitch & Thread Co.');
    expect(sentence('You left Needles!')).toBe('You left Needles!');
    expect(sentence('Added Machine 2')).toBe('Added Machine 2.');
  });
});

describe('wholeNumber', () => {
  it('reads counters as people type them, grouped or not', () => {
    for (const typed of ['1250000', '1,250,000', '1 250 000', '1.250.000', "1'250'000", ' 1\u202f250\u202f000 ']) {
      expect(wholeNumber(typed)).toBe(1_250_000);
    }
    expect(wholeNumber('0')).toBe(0);
  });

  it('refuses what is not a whole number, or groups that are not threes', () => {
    for (const typed of ['', '1.5', '12,50', '1,250.000', '-3', '1e6', 'abc', '1,2345']) {
      expect(wholeNumber(typed)).toBeNull();
    }
  });
});

describe('counted', () => {
  it('says one thread, two threads: never thread(s)', () => {
    expect(counted(1, 'thread')).toBe('1 thread');
    expect(counted(2, 'thread')).toBe('2 threads');
    expect(counted(0, 'row')).toBe('0 rows');
    expect(counted(1250, 'spool')).toBe('1,250 spools');
  });
});
