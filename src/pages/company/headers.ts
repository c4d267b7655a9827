// The headers every dashboard response carries: the pages' shared security headers
// (pages/kit/headers.ts), the same for the dashboard, the workers' app and the console.
export { pageHeaders as dashboardHeaders } from '../kit/headers.ts';
