// How the dashboard reads what a browser sends: the shared form helpers of
// http/page-forms.ts, which every family of pages uses alike.
export {
  Repeated,
  checkWith,
  readAsBrowsersSend,
  unreadableMultipart,
  valuesOf,
} from '../http/page-forms.ts';
export type { Broken, Checked } from '../http/page-forms.ts';
// Form errors in plain words, all at once, each naming its field as the form labels it
// (http/form-errors.ts tells how a page uses them; views/form-errors.eta is the summary).
export { fieldError, fieldErrors, formCheck } from '../http/form-errors.ts';
export type { CheckedForm, FieldError, FormField, FormFields } from '../http/form-errors.ts';
