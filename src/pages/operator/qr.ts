// The QR code of an authenticator's otpauth:// URI, drawn as inline SVG by the `qrcode`
// package in process: nothing is fetched, and the secret never leaves the page. Inline
// markup (not an image URL) because the pages' policy loads images from the service only.
import QRCode from 'qrcode';

/** The SVG of `text`'s QR code, labelled for assistive technology. */
export async function qrSvg(text: string, label: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  const escaped = label.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return svg.replace('<svg ', `<svg class="qr" role="img" aria-label="${escaped}" `);
}
