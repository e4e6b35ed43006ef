import { z } from 'zod';

// Response DTOs of the HTTP API: the routes declare them (openapi.json), a contract test checks
// the answers against them, and the frontends take their types from them (issue #19).

/** A log position as the API sends it: a decimal string (a bigint does not fit a JSON number). */
export const logPosition = z
  .string()
  .regex(/^\d+$/)
  .describe('The log position written; send it back as X-Bahi-Position to read this write');

/** The answer to a write of one record: its id and the position it was written at. */
export const writeAnswer = z.object({ id: z.string(), position: logPosition });
export type WriteAnswer = z.infer<typeof writeAnswer>;

/** The answer to a write of several records in one append (bulk sales). */
export const bulkWriteAnswer = z.object({
  ids: z.array(z.string()),
  count: z.number().int(),
  position: logPosition,
});
export type BulkWriteAnswer = z.infer<typeof bulkWriteAnswer>;

/** One page of a list (spec section 7): the rows and how many there are in all. */
export const pageOf = <T extends z.ZodType>(row: T) =>
  z.object({ data: z.array(row), totalItems: z.number().int().nonnegative() });

/**
 * A row the contract documents only as an object (reports whose rows have many shapes); any
 * typed object passes, so a handler's own row types need no index signature.
 */
export const anyRow = z
  .custom<object>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'expected an object')
  .meta({ type: 'object' });

/** A short confirmation with a message for the user. */
export const messageAnswer = z.object({ message: z.string() });

/** A user as the API shows one (never a password or its hash). */
export const userView = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  role: z.string().describe('Admin, Manager, Collector or Viewer'),
  is_active: z.boolean(),
});
export type UserView = z.infer<typeof userView>;

/** POST /api/auth/login: the session token (also set as the event stream's cookie) and who signed in. */
export const loginAnswer = z.object({ token: z.string(), expiresIn: z.number(), user: userView });
export type LoginAnswer = z.infer<typeof loginAnswer>;

/** Whether the installed license is valid, why not, and its terms. */
export const licenseStatus = z.object({
  isValid: z.boolean(),
  reason: z.string().nullable(),
  config: z.record(z.string(), z.unknown()).nullable(),
});
export type LicenseStatus = z.infer<typeof licenseStatus>;

// The read side's answers. Amounts and quantities are decimal strings; a column a record may
// not have is optional or null. Reports with many row shapes document their row as an object.

const text = z.string().nullish();
const dayText = z.string().describe('A business date, YYYY-MM-DD');

export const cityRow = z.object({
  id: z.string(),
  name: z.string(),
  currency_name: z.string(),
  rate: z.string(),
});
export const productRow = z.object({ id: z.string(), name: z.string() });
export const customFieldRow = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  is_required: z.boolean(),
  options: z.unknown(),
  entity_types: z.unknown(),
});

/** A funder, agent, collector or godown in its list, with its balance (spec section 3). */
export const partyRow = z.object({
  id: z.string(),
  name: z.string(),
  city_id: z.string().nullable(),
  city: z.object({ id: z.string(), name: text, currency_name: text }).nullable(),
  joining_date: text,
  address: text,
  narration: text,
  phone: text,
  opening_balance: z.string(),
  balance: z.object({ amount: z.string() }),
  salary_per_month: text,
  clearing_balance: text,
  stock: z.array(anyRow).optional(),
});
export type PartyRow = z.infer<typeof partyRow>;

export const cityPage = pageOf(cityRow);
export const productPage = pageOf(productRow);
export const userPage = pageOf(userView);
export const partyPage = pageOf(partyRow);
export const customFieldList = z.array(customFieldRow);
export type CityRow = z.output<typeof cityRow>;
export type ProductRow = z.output<typeof productRow>;
export type CustomFieldRow = z.output<typeof customFieldRow>;

/** A list page whose rows the route describes only as objects (the columns of a report). */
export const rowPage = pageOf(anyRow);

export const balancesReport = z.object({
  funders: partyPage,
  agents: partyPage,
  collectors: partyPage,
  godowns: partyPage,
});

export const dashboardSummary = z.object({
  totalFunderBalance: z.string(),
  totalAgentBalance: z.string(),
  totalCollectorBalance: z.string(),
  totalGodownBalance: z.string(),
  dailyIncomeExpense: z.array(z.object({ day: dayText, income: z.string(), expense: z.string() })),
});
export type DashboardSummary = z.infer<typeof dashboardSummary>;

/** One product held in one godown (GET /api/reports/stock). */
export const stockRow = z.object({
  godown_id: z.string(),
  product_id: z.string(),
  product_name: z.string(),
  quantity: z.string().describe('Decimal text, 4 places'),
});
export type StockRow = z.infer<typeof stockRow>;

/** Stock per godown name: each godown's products and quantities (two godowns of one name share a key). */
export const stockReport = z.record(z.string(), z.array(stockRow));
export type StockMap = z.infer<typeof stockReport>;

export const averagePurchaseRate = z.object({
  product_id: z.string(),
  godown_id: z.string(),
  quantity: z.string(),
  average_rate: z.string(),
});

export const ledgerReport = z
  .object({
    closingBalance: z.string(),
    totalDebit: z.string(),
    totalCredit: z.string(),
    transactions: z.array(anyRow),
  })
  .catchall(z.unknown());

/** A record with its latest data, whether it is deleted, its history and names for its ids. */
export const recordHistoryAnswer = anyRow;

export const paidForMonth = z.object({
  collector_id: z.string(),
  month: z.number().int(),
  year: z.number().int(),
  totalPaid: z.string(),
});

export const notificationRow = z.object({
  id: z.string(),
  title: z.string(),
  message: z.string(),
  type: z.string(),
  link: z.string().nullable(),
  created_at: z.string(),
  is_read: z.boolean(),
});
export const notificationList = z.object({
  notifications: z.array(notificationRow),
  unreadCount: z.number().int(),
});
export type NotificationList = z.infer<typeof notificationList>;

export const activityRow = z.object({
  id: z.string(),
  action_type: z.string(),
  model_name: z.string(),
  record_id: z.string().nullable(),
  user: z.object({ id: z.string(), name: z.string() }).nullable(),
  old_data: z.unknown(),
  new_data: z.unknown(),
  created_at: z.string(),
});
export const activityPage = pageOf(activityRow);

export const projectionsStatus = z.object({
  head: z.string(),
  projections: z.array(anyRow),
  quarantined: z.array(z.unknown()),
  rebuilds: z.array(anyRow),
});

export const failingEvent = z.object({
  projection: z.string(),
  error: z.string().nullish(),
  event: z.object({
    position: z.string(),
    type: z.string(),
    streamId: z.string(),
    streamVersion: z.string(),
    data: z.unknown(),
    metadata: z.unknown(),
  }),
});

/** A report file that is still being made: where to fetch it once it is ready. */
export const reportPending = z.object({
  message: z.string(),
  jobId: z.string(),
  link: z.string().optional(),
});

export const whatsappOutbox = z.object({ data: z.array(anyRow) });

/** A master a row points to, with its name as the masters read model has it. */
const named = z.object({ id: z.string(), name: z.string().nullable() });
/** Custom field values of a record, as its entity's definitions show them. */
const customFieldValues = z.unknown().describe("The record's custom field values");

export const purchaseRow = z.object({
  id: z.string(),
  type: z.string().describe('Godown or Direct'),
  purchase_date: dayText,
  city_id: z.string(),
  funder_id: z.string(),
  funder: named.nullable(),
  product_id: z.string(),
  product: named.nullable(),
  godown_id: z.string().nullable(),
  godown: named.nullable(),
  collector_id: z.string().nullable(),
  collector: named.nullable(),
  agent_id: z.string().nullable(),
  agent: named.nullable(),
  rate: z.string(),
  quantity: z.string(),
  returned_quantity: z.string(),
  remaining: z.string(),
  total: z.string(),
  paid_amount: z.string().nullable(),
  commission: z.string().nullable(),
  customFieldValues,
});
export const purchasePage = pageOf(purchaseRow);
export type PurchaseRow = z.output<typeof purchaseRow>;

export const saleRow = z.object({
  id: z.string(),
  sale_date: dayText,
  agent_id: z.string(),
  agent: named,
  product_id: z.string(),
  product: named,
  godown_id: z.string(),
  godown: named,
  rate: z.string(),
  quantity: z.string(),
  returned_quantity: z.string(),
  remaining: z.string(),
  total: z.string(),
  clearing_charge: z.string(),
  customFieldValues,
});
export const salePage = pageOf(saleRow);
export type SaleRow = z.output<typeof saleRow>;

/** An amount, quantity or rate as the API sends it: a decimal string. */
const decimalText = z.string().describe('A decimal number as text, such as 1250.50');
const cashHolder = z.enum(['Collector', 'Godown']);

export const expenseRow = z.object({
  id: z.string(),
  expense_date: dayText,
  city_id: z.string(),
  category: z.string(),
  amount: decimalText,
  paid_from_entity_type: cashHolder,
  paid_from_entity_id: z.string(),
  payerName: z.string().nullable(),
  remarks: z.string().nullable(),
  /** Present on a salary payment listed among the expenses. */
  salary_payment: z
    .object({ collector_id: z.string(), month: z.number().int(), year: z.number().int() })
    .optional(),
});
export const expensePage = pageOf(expenseRow);
export type ExpenseRow = z.output<typeof expenseRow>;

export const incomeRow = z.object({
  id: z.string(),
  income_date: dayText,
  city_id: z.string(),
  category: z.string(),
  amount: decimalText,
  received_by_entity_type: cashHolder,
  received_by_entity_id: z.string(),
  receiverName: z.string().nullable(),
  remarks: z.string().nullable(),
});
export const incomePage = pageOf(incomeRow);
export type IncomeRow = z.output<typeof incomeRow>;

/** A collector of a transfer with its city; null when the collector is not found. */
const transferCollector = z
  .object({
    id: z.string(),
    name: z.string(),
    city: z.object({ name: z.string().nullable(), currency_name: z.string().nullable() }),
  })
  .nullable();
export const transferRow = z.object({
  id: z.string(),
  transfer_date: dayText,
  from_collector_id: z.string(),
  to_collector_id: z.string(),
  sent_amount: decimalText,
  transfer_charge: decimalText,
  operation: z.enum(['*', '/']).describe('How the rate converts: multiply or divide'),
  rate: decimalText,
  amount: decimalText,
  remarks: z.string().nullable(),
  fromCollector: transferCollector,
  toCollector: transferCollector,
});
export const transferPage = pageOf(transferRow);
export type TransferRow = z.output<typeof transferRow>;

export const paymentRow = z.object({
  id: z.string(),
  payment_date: dayText,
  type: z.enum(['Payment To', 'Payment From']).describe('Payment To (a funder) or Payment From (an agent)'),
  related_entity_type: z.enum(['Funder', 'Agent']),
  related_entity_id: z.string(),
  relatedEntityName: z.string().nullable(),
  payment_mode: z.enum(['Currency', 'INR']),
  handlerEntityName: z.string().nullable(),
  currency: z.string().nullable(),
  amount: decimalText,
  reference: z.string().nullable(),
});
export const paymentPage = pageOf(paymentRow);
export type PaymentRow = z.output<typeof paymentRow>;

export const salaryRow = z.object({
  id: z.string(),
  created_at: z.iso.datetime({ offset: true }).describe('When the payment was recorded'),
  payment_date: dayText,
  collector_id: z.string(),
  collectorName: z.string().nullable(),
  month: z.number().int().min(1).max(12),
  year: z.number().int(),
  payment_type: z.enum(['Full', 'Advance']),
  payment_mode: z.enum(['Currency', 'INR']),
  currency: z.string().nullable(),
  amount: decimalText,
  payerName: z.string().nullable(),
  expense: z.object({ category: z.string(), remarks: z.string().nullable() }),
  remarks: z.string().nullable(),
});
export const salaryPage = pageOf(salaryRow);
export type SalaryRow = z.output<typeof salaryRow>;
