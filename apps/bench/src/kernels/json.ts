import type { KernelFactory } from "./types.ts";

const VARIANTS = 8;
const ORDERS = 12;
const STATUSES = ["pending", "paid", "shipped", "delivered", "refunded"] as const;
const SKUS = ["KB-101", "MS-220", "HD-4TB", "CB-USB-C", "MN-27Q", "DK-STAND"] as const;

/**
 * A page of an orders API as a client receives it: nested objects and arrays, strings with
 * escapes and non-ASCII text, integers, decimals, booleans and nulls. About 4 KB.
 */
function ordersPage(variant: number): string {
  const orders = Array.from({ length: ORDERS }, (_, n) => {
    const id = variant * 1000 + n;
    return {
      id: `ord_${id.toString(36).padStart(6, "0")}`,
      createdAt: new Date(Date.UTC(2025, n % 12, 1 + n, 9, n, 30)).toISOString(),
      status: STATUSES[(variant + n) % STATUSES.length],
      customer: {
        id: 40_000 + id,
        name: n % 3 === 0 ? `Zoë "Z" Müller-${n}` : `Customer ${n}`,
        email: `customer${id}@example.com`,
        vip: n % 4 === 0,
      },
      lines: Array.from({ length: 1 + ((variant + n) % 3) }, (_, k) => ({
        sku: SKUS[(n + k) % SKUS.length],
        quantity: 1 + k,
        unitPrice: Math.round((19.99 + n * 7.31 + k) * 100) / 100,
      })),
      shipping: n % 5 === 0 ? null : { method: "standard", cost: 4.95, tracking: `TRK${id}\tEU` },
      total: Math.round((59.97 + n * 11.2 + variant) * 100) / 100,
    };
  });
  return JSON.stringify({
    page: variant + 1,
    pageSize: ORDERS,
    hasMore: variant < VARIANTS - 1,
    orders,
  });
}

type OrdersPage = { orders: { total: number; lines: unknown[] }[] };

/** JSON parsing: parse one of eight ~4 KB documents per iteration and read from the result. */
export const jsonKernel: KernelFactory = () => {
  const documents = Array.from({ length: VARIANTS }, (_, variant) => ordersPage(variant));
  return (iteration) => {
    const page = JSON.parse(documents[iteration % VARIANTS] ?? "") as OrdersPage;
    const order = page.orders[iteration % ORDERS];
    return page.orders.length + (order ? order.lines.length + Math.trunc(order.total) : 0);
  };
};
