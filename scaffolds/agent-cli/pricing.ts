import type { Usage } from '../../core/model.js';
import type { PriceTable } from '../../models/prices.js';

/** What one exchange cost, and the model spec whose price it was charged at (null when no price is known). */
export interface ExchangePrice {
  costUsd: number | null;
  pricedAs: string | null;
}

/**
 * Prices one exchange by the model its request names, under the run's provider (`anthropic/` + `claude-haiku-4-5`):
 * agent programs send side requests (titles, summaries, sub-agents) to a smaller model than the run's. A name the
 * table does not know is charged as the run's model. A scripted run stays free whatever its program names, since
 * `scripted/` prices at zero.
 */
export function priceExchange(prices: PriceTable, runModel: string, requestModel: unknown, usage: Usage): ExchangePrice {
  const slash = runModel.indexOf('/');
  const named =
    slash > 0 && !runModel.startsWith('scripted/') && typeof requestModel === 'string' && requestModel.trim()
      ? `${runModel.slice(0, slash)}/${requestModel.trim()}`
      : undefined;
  if (named && named !== runModel && prices.lookup(named)) return { costUsd: prices.cost(named, usage), pricedAs: named };
  const costUsd = prices.cost(runModel, usage);
  return { costUsd, pricedAs: costUsd === null ? null : runModel };
}
