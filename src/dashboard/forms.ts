// How the dashboard reads what a browser sends: the shared form helpers of
// http/page-forms.ts, which every family of pages uses alike.
export { Repeated, checkWith, readAsBrowsersSend, valuesOf } from '../http/page-forms.ts';
export type { Broken, Checked } from '../http/page-forms.ts';
