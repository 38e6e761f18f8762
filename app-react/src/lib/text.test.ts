import { sentence } from './text';

describe('sentence', () => {
  it('ends a sentence with one full stop, after a name that already ends with one', () => {
    expect(sentence('The team is now called Stitch & Thread Co.')).toBe('The team is now called Stitch & Thread Co.');
    expect(sentence('You left Needles!')).toBe('You left Needles!');
    expect(sentence('Added Machine 2')).toBe('Added Machine 2.');
  });
});
