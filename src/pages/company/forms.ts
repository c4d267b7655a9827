// How the dashboard reads what a browser sends: the shared form helpers of
// pages/kit/forms.ts, which every family of pages uses alike.
export {
  Repeated,
  checkWith,
  readAsBrowsersSend,
  unreadableMultipart,
  valuesOf,
} from '../kit/forms.ts';
export type { Broken, Checked } from '../kit/forms.ts';
// Form errors in plain words, all at once, each naming its field as the form labels it
// (pages/kit/form-errors.ts tells how a page uses them; views/form-errors.eta is the summary).
export { fieldError, fieldErrors, formCheck } from '../kit/form-errors.ts';
export type { CheckedForm, FieldError, FormField, FormFields } from '../kit/form-errors.ts';
