import { z } from 'zod';
import { eventSchemas } from './events.ts';
import { CUSTOM_FIELD_ENTITY_TYPES, CUSTOM_FIELD_TYPES } from './masters.ts';
import { rebuildReport } from './operations.ts';
import { ROLES } from './roles.ts';

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

/** A short confirmation with a message for the user. */
export const messageAnswer = z.object({ message: z.string() });

/** A user as the API shows one (never a password or its hash). */
export const userView = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  role: z.enum(ROLES),
  is_active: z.boolean(),
});
export type UserView = z.infer<typeof userView>;

/** POST /api/auth/login: the session token (also set as the event stream's cookie) and who signed in. */
export const loginAnswer = z.object({ token: z.string(), expiresIn: z.number(), user: userView });
export type LoginAnswer = z.infer<typeof loginAnswer>;

/** A license's terms as its issuer signed them (the license file is a JWS of these). */
export const licenseClaims = z.object({
  status: z.enum(['Active', 'Expired']),
  type: z.string().min(1),
  /** ISO timestamp; null only for a Perpetual license. */
  expires_at: z.iso.datetime().nullable(),
  grace_period_days: z.number().int().min(0),
  expiry_notification_days: z.number().int().min(0),
  licensee: z.string().optional(),
  issued_at: z.iso.datetime().optional(),
});
export type LicenseClaims = z.output<typeof licenseClaims>;

/** Whether the installed license is valid, why not, and its terms (spec section 3, License info). */
export const licenseStatus = z.object({
  isValid: z.boolean(),
  reason: z.string().nullable(),
  /** Status is Expired once past its expiry, whatever it was issued with. */
  config: licenseClaims.omit({ licensee: true, issued_at: true }).nullable(),
});
export type LicenseStatus = z.output<typeof licenseStatus>;

// The read side's answers. Amounts and quantities are decimal strings; a column a record may
// not have is optional or null.

const text = z.string().nullish();
const dayText = z.string().describe('A business date, YYYY-MM-DD');
const moment = z.string().describe('A moment, ISO 8601 in UTC');

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
  type: z.enum(CUSTOM_FIELD_TYPES),
  is_required: z.boolean(),
  options: z.array(z.string()).nullable().describe("A dropdown's choices; null for other types"),
  entity_types: z.array(z.enum(CUSTOM_FIELD_ENTITY_TYPES)),
});

/** A product a godown holds, and how much (a godown's row in its list and in Balances). */
export const godownStockRow = z.object({
  product_id: z.string(),
  product_name: z.string(),
  quantity: z.string().describe('Decimal text, 4 places'),
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
  salary_per_month: text.describe("A collector's; absent for the other kinds"),
  clearing_balance: text.describe("A godown's; absent for the other kinds"),
  stock: z.array(godownStockRow).optional().describe("A godown's; absent for the other kinds"),
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

export const balancesReport = z.object({
  funders: partyPage,
  agents: partyPage,
  collectors: partyPage,
  godowns: partyPage,
});
export type BalancesReport = z.output<typeof balancesReport>;

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
export type AveragePurchaseRate = z.output<typeof averagePurchaseRate>;

/** The records a report line can lead to (GET /api/reports/records/{type}/{id}). */
export const RECORD_TYPES = [
  'Purchase',
  'Sale',
  'Payment',
  'ClearingPayout',
  'SalaryPayment',
  'Transfer',
  'Expense',
  'Income',
] as const;
export const recordType = z.enum(RECORD_TYPES);
export type RecordType = z.output<typeof recordType>;

/** A journal line's identity, the same in every report that shows it, and its record. */
const lineIdentity = {
  key: z.string().describe("`<position>.<line>`: the event's position in the log and the posting's index"),
  record: z.object({ type: recordType, id: z.string() }).describe('The record the line belongs to'),
  recorded_at: moment.describe('When the line was recorded (ISO, UTC)'),
};
const partyKind = z.enum(['Funder', 'Agent', 'Collector', 'Godown']);

/**
 * How a ledger or cashbook line stands to its record's corrections: `superseded` (undone by a
 * later edit or delete), `reversal` (the undoing line), `amended` (an edit's new line); null for
 * a line no edit or delete touched. Without `corrections=true` superseded lines and their
 * reversals are left out wherever they cancel within the report's dates.
 */
export const lineCorrection = z
  .object({
    state: z.enum(['superseded', 'reversal', 'amended']),
    action: z.enum(['edited', 'deleted']),
    at: moment.describe('When the edit or delete was recorded (ISO, UTC)'),
    by: z.string().nullable().describe('The name of the user who made it, when known'),
  })
  .nullable();
export type LineCorrection = z.output<typeof lineCorrection>;

/** A ledger line: a debit or a credit and the running balance on the party's normal side. */
export const ledgerLine = z.object({
  date: dayText,
  particulars: z.string(),
  type: z.enum(['Debit', 'Credit']),
  debit: z.string(),
  credit: z.string(),
  balance: z.string(),
  correction: lineCorrection,
  ...lineIdentity,
});
export type LedgerLine = z.output<typeof ledgerLine>;

export const ledgerReport = z.object({
  entity: z.object({
    id: z.string(),
    name: z.string(),
    type: partyKind,
    city_id: z.string().nullable(),
    currency: z
      .string()
      .describe("The account's currency: its city's, INR for a godown; every amount is in it"),
  }),
  openingBalance: z.string(),
  closingBalance: z.string(),
  totalDebit: z.string(),
  totalCredit: z.string(),
  transactions: z.array(ledgerLine),
});
export type LedgerReport = z.output<typeof ledgerReport>;

/** A cashbook line: money into or out of one collector's or godown's cash. */
export const cashbookRow = z.object({
  date: dayText,
  particulars: z.string(),
  cash_in: z.string(),
  cash_out: z.string(),
  currency: z.string().describe("The cash account's currency: its collector's city's, INR for a godown"),
  correction: lineCorrection,
  ...lineIdentity,
});
export type CashbookRow = z.output<typeof cashbookRow>;
/** GET /api/reports/cashbook-report. */
export const cashbookReport = z.array(cashbookRow);

/** A day-wise row: income or expense in INR at its record's own rate, and the amount entered. */
export const daywiseRow = z.object({
  date: dayText,
  category: z.string(),
  remarks: z.string().nullable(),
  type: z.enum(['Income', 'Expense']).describe('Salary payments count as expenses'),
  amount_entered: z.string().describe("The amount as entered, in its record's currency"),
  amount: z.string().describe("In INR, at the record's own rate"),
  currency: z.literal('INR').describe('The currency of `amount`'),
  record: z.object({ type: z.enum(['Expense', 'Income', 'SalaryPayment']), id: z.string() }),
});
export type DaywiseRow = z.output<typeof daywiseRow>;
/** GET /api/reports/daywise-report. */
export const daywiseReport = z.array(daywiseRow);

/** A record's JSON as the activity log keeps it (timestamps and secrets left out): open-ended. */
const loggedData = z
  .record(z.string(), z.unknown())
  .nullable()
  .describe('The record as its event wrote it (timestamps and secrets left out): its fields vary by model');
const actionType = z.enum(['CREATE', 'UPDATE', 'DELETE']);
const byUser = z.object({ id: z.string(), name: z.string() }).nullable();

/** An activity log entry (GET /api/logs): who did what to which record, and its data before and after. */
export const activityRow = z.object({
  id: z.string(),
  action_type: actionType,
  model_name: z.string(),
  record_id: z.string(),
  user: byUser,
  old_data: loggedData,
  new_data: loggedData,
  created_at: moment,
});
export type ActivityRow = z.output<typeof activityRow>;

/** One change of a record in its drill-down: an activity log entry of that record. */
export const recordChange = activityRow.omit({ record_id: true });
export type RecordChange = z.output<typeof recordChange>;

/** A record with its latest data, whether it is deleted, its history and names for its ids. */
export const recordHistoryAnswer = z.object({
  type: recordType,
  id: z.string(),
  data: loggedData.describe('Its latest known data: the last written, or what a delete removed'),
  deleted: z.boolean(),
  history: z.array(recordChange).describe("Oldest first; a purchase's or sale's returns among them"),
  names: z
    .record(z.string(), z.string())
    .describe('Names of the parties, products, cities and users whose ids appear in data and history'),
});
export type RecordHistory = z.output<typeof recordHistoryAnswer>;

export const paidForMonth = z.object({
  collector_id: z.string(),
  month: z.number().int(),
  year: z.number().int(),
  totalPaid: z.string(),
});
export type PaidForMonth = z.output<typeof paidForMonth>;

export const notificationRow = z.object({
  id: z.string(),
  title: z.string(),
  message: z.string(),
  type: z.enum(['info', 'warning', 'success', 'error']),
  link: z.string().nullable(),
  created_at: moment,
  is_read: z.boolean(),
});
export type NotificationRow = z.output<typeof notificationRow>;
export const notificationList = z.object({
  notifications: z.array(notificationRow),
  unreadCount: z.number().int(),
});
export type NotificationList = z.infer<typeof notificationList>;

export const activityPage = pageOf(activityRow);

/** One read model's checkpoint: where it stands, how far behind the head, and why it stopped. */
export const projectionState = z.object({
  name: z.string(),
  position: z.string(),
  lag: z.string(),
  status: z.enum(['running', 'failed', 'paused']),
  error: z.string().nullable(),
  updatedAt: moment,
  failingEvent: z
    .object({ position: z.string(), type: z.string(), streamId: z.string() })
    .optional()
    .describe('A stopped projection: the event it cannot apply'),
});
export type ProjectionState = z.output<typeof projectionState>;

/** An operator's decision to set an event aside for one projection (`EventQuarantined`). */
export const quarantinedEvent = eventSchemas.EventQuarantined.schema.extend({
  quarantinedAt: moment,
  quarantinedBy: z.string().nullable().describe('The user who set it aside; null from the CLI'),
});
export type QuarantinedEvent = z.output<typeof quarantinedEvent>;

/** A rebuild of read models: asked for, running, done (with its report) or failed. */
export const rebuildRow = z.object({
  id: z.string(),
  projections: z.array(z.string()),
  swap: z.boolean(),
  status: z.enum(['requested', 'running', 'done', 'failed']),
  requestedBy: z.string(),
  position: z.string().regex(/^\d+$/).describe('How far the replay has come (a log position)'),
  target: z.string().regex(/^\d+$/).describe('The head of the log it replays up to'),
  report: rebuildReport.nullable().describe('Once it is done'),
  error: z.string().nullable(),
  requestedAt: moment,
  updatedAt: moment,
});
export type RebuildRow = z.output<typeof rebuildRow>;

export const projectionsStatus = z.object({
  head: z.string(),
  projections: z.array(projectionState),
  quarantined: z.array(quarantinedEvent),
  rebuilds: z.array(rebuildRow).describe('The last 10, newest first'),
});
export type ProjectionsStatus = z.output<typeof projectionsStatus>;

/** One backup of the event log, as its manifest describes it (README, "Backups"). */
export const backupManifest = z.object({
  file: z.string().describe('Its file name in the backup directory'),
  format: z.string(),
  formatVersion: z.number().int(),
  schemaVersion: z.number().int().describe("The event store's schema version it was read from"),
  source: z.enum(['postgres', 'pglite']),
  createdAt: moment,
  completedAt: moment,
  events: z.number().int(),
  headPosition: z.string().regex(/^\d+$/).describe('Every event at or below this log position, none above'),
  chainHead: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .describe('The last hash of the SHA-256 chain over the events'),
  sealedChainHead: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable()
    .optional()
    .describe(
      "The stored seal's hash at the head; differs from chainHead if the log was altered after it was sealed",
    ),
  credentials: z.number().int().describe('Sign-in credentials (password hashes) carried along'),
  credentialsHash: z.string(),
  bytes: z.number().int(),
});
export type BackupManifestRow = z.output<typeof backupManifest>;

/** The standalone's backups (Settings > System). */
export const backupsStatus = z.object({
  directory: z.string().describe('Where the app writes its backups'),
  daily: z.boolean().describe('BAHI_BACKUP_DIR is set: a backup a day, taken by the app'),
  keep: z.number().int().describe('How many it keeps there'),
  running: z.boolean(),
  last: backupManifest.nullable(),
});
export type BackupsStatus = z.output<typeof backupsStatus>;

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * GET /api/admin/verify: the chain recomputed over the whole log against the stored seal
 * (docs/event-store.md, "The seal"). Intact up to a position, or the first position where it breaks.
 */
export const chainVerification = z.object({
  status: z.enum(['intact', 'broken']),
  summary: z.string().describe('The answer in words'),
  checked: z.number().int().describe('Events whose hash matched their seal'),
  total: z.number().int().describe('Events at or below the sealed head'),
  intactUpTo: z
    .string()
    .regex(/^\d+$/)
    .describe('The last position whose hash matched; when broken, nothing after it can be trusted'),
  chainHead: hex64.describe('The chain head at intactUpTo'),
  sealedUpTo: z.string().regex(/^\d+$/),
  head: z.string().regex(/^\d+$/).describe('The last committed position of the log'),
  unsealed: z.number().int().describe('Events above the sealed head, not checked'),
  startedAt: moment,
  finishedAt: moment,
  broken: z
    .object({
      position: z.string().regex(/^\d+$/).describe('The first position that does not match'),
      reason: z.enum(['altered', 'missing', 'inserted']),
      stored: hex64.nullable().describe('The hash in the seal (null: none)'),
      recomputed: hex64.nullable().describe('The hash of the event as it is now (null: no event)'),
      type: z.string().optional(),
      streamId: z.string().optional(),
      recordedAt: z.string().nullable().optional(),
    })
    .optional(),
});
export type ChainVerificationResult = z.output<typeof chainVerification>;

/** GET /api/admin/verify/progress: how far the verification running in this service is. */
export const verifyProgress = z.object({
  running: z.boolean(),
  checked: z.number().int().describe('Events compared so far'),
  total: z.number().int().describe('Events to compare (0 until it knows)'),
});
export type VerifyProgress = z.output<typeof verifyProgress>;

export const failingEvent = z.object({
  projection: z.string(),
  error: z.string().nullable(),
  event: z.object({
    position: z.string(),
    type: z.string(),
    streamId: z.string(),
    streamVersion: z.string(),
    data: z.unknown().describe("The event's data as it is stored: it may be what no schema accepts"),
    metadata: z
      .object({
        userId: z.string().nullable(),
        correlationId: z.string(),
        causationId: z.string().nullable(),
        recordedAt: moment,
      })
      .catchall(z.unknown())
      .describe('Besides these, whatever else its writer added (schemaVersion, say): open-ended'),
  }),
});
export type FailingEvent = z.output<typeof failingEvent>;

/** A report file that is still being made: where to fetch it once it is ready. */
export const reportPending = z.object({
  message: z.string(),
  jobId: z.string(),
  link: z.string().optional(),
});

/** One send's latest record (a `ReportSendRecorded`), who recorded it, and its file's link. */
export const outboxEntry = eventSchemas.ReportSendRecorded.schema.extend({
  recorded_at: moment,
  recorded_by: z
    .string()
    .nullable()
    .describe('Who recorded the latest record: the requester, or the Admin who marked it sent'),
  link: z.string().describe("The file's path (GET it with the session's token)"),
});
export type OutboxEntry = z.output<typeof outboxEntry>;
export const whatsappOutbox = z.object({ data: z.array(outboxEntry).describe('Newest first') });
export type WhatsappOutbox = z.output<typeof whatsappOutbox>;
/**
 * Send now (POST /api/reports/whatsapp/outbox/{jobId}/send): what became of a send in the
 * outbox (or failed) that an Admin sent again. `accepted`: WhatsApp took it; `outbox`: it stays
 * in the outbox (no WhatsApp transport is set up), the message says why; `queued`: still being
 * sent (202), its row changes when it is done.
 */
export const outboxSendNow = z.object({
  jobId: z.string().describe("The send's id (its outbox row)"),
  status: z.enum(['accepted', 'outbox', 'queued']),
  message: z.string(),
});
export type OutboxSendNow = z.output<typeof outboxSendNow>;

/** A master a row points to, with its name as the masters read model has it. */
const named = z.object({ id: z.string(), name: z.string().nullable() });
/** What a custom field holds: text, a number, a boolean or null (the custom_fields input takes no other). */
export const customFieldScalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type CustomFieldScalar = z.output<typeof customFieldScalar>;
/** A stored value a custom field can hold (the read model keeps the record's values as JSON). */
export const isCustomFieldScalar = (value: unknown): value is CustomFieldScalar =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value);
/** One custom field value of a record, with its definition's name. */
export const customFieldValue = z.object({
  id: z.string().describe('`<record id>:<definition id>`'),
  custom_field_definition_id: z.string(),
  value: customFieldScalar,
  definition: z.object({ name: z.string() }),
});
export type CustomFieldValue = z.output<typeof customFieldValue>;
/** Custom field values of a record, for the definitions that still exist. */
const customFieldValues = z.array(customFieldValue);

/** The record an adjustment corrects (issue #30), as its event carries it; null: not an adjustment. */
const adjustsAnswer = z
  .object({ id: z.string(), kind: z.string(), date: z.string() })
  .nullable()
  .describe('The record this entry adjusts: its id, kind and business date');

export const purchaseRow = z.object({
  id: z.string(),
  type: z.enum(['Godown', 'Direct']),
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
  paid_amount: z.string(),
  commission: z.string(),
  customFieldValues,
  adjusts: adjustsAnswer,
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
  adjusts: adjustsAnswer,
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

/**
 * A dry run's answer (a POST or PUT under /api/transactions/ with `X-Bahi-Dry-Run: true`, issue
 * #14): the postings the write would make, summed per account, beside each account's balance now
 * and after, and the stock it would move. Nothing is appended.
 */
export const previewLine = z.object({
  account: z.string(),
  kind: z.enum(['Funder', 'Agent', 'Collector', 'Godown', 'Clearing', 'Nominal']),
  name: z.string(),
  currency: z.string(),
  debit: z.string(),
  credit: z.string(),
  before: z.string(),
  after: z.string(),
});
export const previewStock = z.object({
  godown_id: z.string(),
  godown: z.string(),
  product_id: z.string(),
  product: z.string(),
  before: z.string(),
  change: z.string(),
  after: z.string(),
});
export const dryRunAnswer = z
  .object({ dryRun: z.literal(true), lines: z.array(previewLine), stock: z.array(previewStock) })
  .describe('With X-Bahi-Dry-Run: true, what the write would post; nothing is appended');
export type PreviewLine = z.infer<typeof previewLine>;
export type PreviewStock = z.infer<typeof previewStock>;
export type DryRunAnswer = z.infer<typeof dryRunAnswer>;
