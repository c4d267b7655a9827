// Delivery (dashboard page): how punctually the company's posts went out over the last 7 or
// 30 days, for the company and for each of its accounts: posted on time, failed, unconfirmed,
// release-to-claim and release-to-posted times and windows missed. Read from the per-day
// delivery counters.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { listCompanyAccounts } from '../../modules/accounts/index.ts';
import { deliveryFigures, type DeliveryFigures } from '../../modules/items/index.ts';
import { page } from './layout.ts';
import { BASE, userOf } from './session.ts';

/** Accounts a page of the table shows (a page's first load stays small: issue 22). */
const PAGE_SIZE = 50;

const DeliveryQuery = Type.Object({
  period: Type.Optional(Type.Union([Type.Literal('7'), Type.Literal('30')])),
  /** The table's page, from 1; one past the last shows the last. */
  page: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,5}$' })),
});

/** The page's address: its period and the table's page (the first two are the defaults). */
function deliveryUrl(period: number, pageNo: number): string {
  const params = new URLSearchParams();
  if (period !== 7) params.set('period', String(period));
  if (pageNo > 1) params.set('page', String(pageNo));
  const qs = params.toString();
  return `${BASE}/delivery${qs ? `?${qs}` : ''}`;
}

/** A share as people read it: "93 %", or a dash when nothing was delivered. */
export function percent(ratio: number | null): string {
  return ratio === null ? '—' : `${Math.round(ratio * 1000) / 10} %`;
}

/** Minutes as people read them: "12 min", "2 h 5 min", "a day or more". */
export function minutes(value: number | null): string {
  if (value === null) return '—';
  if (value >= 1440) return 'a day or more';
  if (value < 60) return `${value} min`;
  const h = Math.floor(value / 60);
  const m = value % 60;
  return m ? `${h} h ${m} min` : `${h} h`;
}

export function deliveryPages(ctx: AppContext) {
  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/delivery', { schema: { querystring: DeliveryQuery } }, async (req, reply) => {
      const user = userOf(req);
      const period = req.query.period === '30' ? 30 : 7;
      const now = ctx.clock.now();
      const accounts = await listCompanyAccounts(ctx.db, user.companyId);
      const [company, byAccount] = await Promise.all([
        deliveryFigures(ctx.db, 'company', [user.companyId], now, period, user.companyId),
        deliveryFigures(
          ctx.db,
          'account',
          accounts.map((a) => a.id),
          now,
          period,
          user.companyId,
        ),
      ]);
      const rows = accounts
        .map((a) => ({
          accountId: a.id,
          username: a.username,
          platform: a.platform,
          figures: byAccount.get(a.id) as DeliveryFigures,
        }))
        // The accounts that need a look first: least on time, then most failed.
        .sort(
          (x, y) =>
            (x.figures.onTimeRatio ?? 2) - (y.figures.onTimeRatio ?? 2) ||
            (y.figures.failedRatio ?? 0) - (x.figures.failedRatio ?? 0) ||
            x.username.localeCompare(y.username),
        );
      const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
      const pageNo = Math.min(pages, Number(req.query.page ?? '1'));
      const from = (pageNo - 1) * PAGE_SIZE;
      return page(req, reply, 'delivery.eta', 'Delivery', {
        period,
        company: company.get(user.companyId),
        rows: rows.slice(from, from + PAGE_SIZE),
        total: rows.length,
        from,
        pageNo,
        pages,
        previous: pageNo > 1 ? deliveryUrl(period, pageNo - 1) : null,
        next: pageNo < pages ? deliveryUrl(period, pageNo + 1) : null,
        percent,
        minutes,
        graceMinutes: Math.round(ctx.config.deliveryGraceMs / 60_000),
      });
    });
  };
}
