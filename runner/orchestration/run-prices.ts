import { UserError } from '../../core/errors.js';
import { defaultPrices, loadPriceFile, type PriceTable } from '../../models/index.js';
import type { Experiment } from '../settings/config.js';

/**
 * The run's price table (its price file over the built-in one), read once up front so a bad file is an input error
 * found before anything runs; and a scripted model's stand-in checked to have a price, never billed as a silent zero.
 */
export function runPrices(experiment: Pick<Experiment, 'prices' | 'scriptedPriceAs'>): PriceTable {
  const table = experiment.prices ? loadPriceFile(experiment.prices) : defaultPrices();
  const as = experiment.scriptedPriceAs;
  if (as && (as.startsWith('scripted/') || !table.lookup(as))) {
    throw new UserError(
      `--scripted-price-as ${as}: no price is known for that model`,
      'name a model of the price table (e.g. anthropic/claude-sonnet-4-5), or give its price with --prices FILE',
    );
  }
  return table;
}
