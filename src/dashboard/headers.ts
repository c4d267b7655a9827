// The headers every dashboard response carries: the pages' shared security headers
// (pages/kit/headers.ts), the same for the dashboard, the workers' page and the console.
export { pageHeaders as dashboardHeaders } from '../pages/kit/headers.ts';
