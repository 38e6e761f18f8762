import { Link } from 'react-router';

import { pageTitle, paths } from '@/config/paths';

/** `/calculators` ('Calculators'): the shop's tools, and the inventories they work with. */
export function CalculatorsPage() {
  return (
    <div className="inventory">
      <title>{pageTitle('Calculators')}</title>
      <h1>Calculators</h1>
      <p className="lead">Price a job, convert thread colours, and see what the shop owns.</p>
      <ul className="link-list">
        <li>
          <Link to={paths.pricingCalculator}>Pricing Calculator</Link> — what a design costs to stitch, from its file.
        </li>
        <li>
          <Link to={paths.threadConverter}>Thread converter</Link> — the nearest colour in another line.
        </li>
        <li>
          <Link to={paths.inventoryThreads}>Thread Inventory</Link> — spools and cones, low stock and the shopping list.
        </li>
        <li>
          <Link to={paths.inventoryMachines}>Machines</Link> — machines, hoops and maintenance due.
        </li>
      </ul>
    </div>
  );
}
