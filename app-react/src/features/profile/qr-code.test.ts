import { qrCodeSrc } from './qr-code';

const svg = '<svg xmlns="http://www.w3.org/2000/svg"><path fill="#000" d="M0 0h1v1H0z"/></svg>';

describe('qrCodeSrc', () => {
  it('encodes the plain SVG the server sends into a data URL', () => {
    const src = qrCodeSrc(svg);
    expect(src.startsWith('data:image/svg+xml;charset=utf-8,%3Csvg')).toBe(true);
    expect(src).not.toContain('#');
    expect(decodeURIComponent(src.slice(src.indexOf(',') + 1))).toBe(svg);
  });

  it("encodes it the same when auth-js prefixed it without encoding (a '#' would cut it short)", () => {
    expect(qrCodeSrc(`data:image/svg+xml;utf-8,${svg}`)).toBe(qrCodeSrc(svg));
  });

  it('keeps a data URL that is already encoded', () => {
    const encoded = `data:image/svg+xml;utf-8,${encodeURIComponent(svg)}`;
    expect(qrCodeSrc(encoded)).toBe(encoded);
    expect(qrCodeSrc('data:image/png;base64,iVBORw0KGgo=')).toBe('data:image/png;base64,iVBORw0KGgo=');
  });

  it('shows nothing for anything else', () => {
    expect(qrCodeSrc('javascript:alert(1)')).toBe('');
    expect(qrCodeSrc('https://evil.example/qr.svg')).toBe('');
  });
});
