const SVG_DATA_PREFIX = /^data:image\/svg\+xml;(?:charset=)?utf-8,/i;

/**
 * The `src` of an <img> showing the enrolment QR code. The server answers plain SVG markup and
 * auth-js prefixes it with `data:image/svg+xml;utf-8,` without encoding it (a `#` in the markup
 * would end the URL there); other versions may not prefix it, or may encode it. Raw markup is
 * encoded into a data URL, so it is only ever an image: never parsed into this page, where a
 * script in it could run.
 */
export function qrCodeSrc(qrCode: string): string {
  const markup = qrCode.replace(SVG_DATA_PREFIX, '').trimStart();
  if (markup.startsWith('<')) return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(markup)}`;
  // Already a data URL with its content encoded (percent or base64): an image as it is.
  if (/^data:image\//i.test(qrCode)) return qrCode;
  // Neither markup nor an image URL: show no image rather than guess.
  return '';
}
