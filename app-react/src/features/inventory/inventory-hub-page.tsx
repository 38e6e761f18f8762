import { Link } from 'react-router';

import { pageTitle, paths } from '@/config/paths';

/** `/inventory` (titled 'Calculators', spelled so): the hub of the inventories and tools. */
export function InventoryHubPage() {
  return (
    <div className="inventory">
      <title>{pageTitle('Calculators')}</title>
      <h1>Calculators</h1>
      <p className="lead">What your shop owns, and the tools that work with it.</p>
      <ul className="link-list">
        <li>
          <Link to={paths.inventoryThreads}>Thread Inventory</Link> — spools and cones, low stock and the shopping list.
        </li>
        <li>
          <Link to={paths.inventoryShoppingList}>Shopping List</Link> — the threads that are low, and what jobs are short of, to print.
        </li>
        <li>
          <Link to={paths.inventoryHistory}>Stock History</Link> — what jobs took from stock and orders brought in, to undo.
        </li>
        <li>
          <Link to={paths.inventoryMachines}>Machines</Link> — machines, hoops and maintenance due.
        </li>
        <li>
          <Link to={paths.pricingCalculator}>Pricing Calculator</Link> — what a design costs to stitch.
        </li>
        <li>
          <Link to={paths.threadConverter}>Thread Converter</Link> — the nearest colour in another line.
        </li>
      </ul>
    </div>
  );
}
