import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';

export { parseRecipient } from '@bahi/report-jobs';

export interface OutgoingDocument {
  to: string;
  fileName: string;
  caption: string;
  body: Buffer;
  contentType: string;
}
export type SendResult =
  | { transport: 'cloud-api'; status: 'accepted'; messageId: string }
  | { transport: 'outbox'; status: 'outbox'; messageId: null };

export interface WhatsAppTransport {
  readonly name: 'cloud-api' | 'outbox';
  send(document: OutgoingDocument): Promise<SendResult>;
}

/** The API answered 4xx (not 429): retrying cannot help (bad number, bad token, bad request). */
export class PermanentSendError extends Error {}
/** 429 or 5xx or the network, still failing after the in-call retries: the job retries later. */
export class TransientSendError extends Error {}

/** The default: nothing leaves the building; an Admin sees the message and file in the outbox. */
export const outboxTransport: WhatsAppTransport = {
  name: 'outbox',
  async send() {
    return { transport: 'outbox', status: 'outbox', messageId: null };
  },
};

export interface CloudApiOptions {
  token: string;
  phoneNumberId: string;
  /** e.g. https://graph.facebook.com/v21.0 (a test points it at a local fake). */
  baseUrl: string;
  /** Tries per call on 429/5xx before giving up to the job's own retry. */
  tries?: number;
  backoffMs?: number;
}

/**
 * The WhatsApp Cloud API: upload the document (POST /{phone-number-id}/media, multipart with
 * messaging_product=whatsapp), then send a document message naming the uploaded media
 * (POST /{phone-number-id}/messages). 429 and 5xx are retried with exponential backoff
 * (honouring Retry-After, capped); another 4xx is permanent.
 */
export function cloudApiTransport(options: CloudApiOptions): WhatsAppTransport {
  const tries = options.tries ?? 4;
  const backoff = options.backoffMs ?? 1000;
  const base = `${options.baseUrl.replace(/\/$/, '')}/${encodeURIComponent(options.phoneNumberId)}`;
  const call = async (path: string, init: () => RequestInit): Promise<Record<string, unknown>> => {
    let last = '';
    for (let attempt = 0; attempt < tries; attempt++) {
      if (attempt > 0)
        await sleep(last.startsWith('retry-after:') ? Number(last.slice(12)) : backoff * 2 ** (attempt - 1));
      let response: Response;
      try {
        const request = init();
        response = await fetch(`${base}${path}`, {
          ...request,
          headers: {
            authorization: `Bearer ${options.token}`,
            ...(request.headers as Record<string, string>),
          },
          signal: AbortSignal.timeout(30_000),
        });
      } catch (error) {
        last = `network: ${(error as Error).message}`;
        continue;
      }
      const text = await response.text();
      if (response.ok) return text ? (JSON.parse(text) as Record<string, unknown>) : {};
      const apiMessage = errorMessage(text) ?? `HTTP ${response.status}`;
      if (response.status === 429 || response.status >= 500) {
        const after = Number(response.headers.get('retry-after'));
        last =
          Number.isFinite(after) && after > 0 ? `retry-after:${Math.min(after * 1000, 30_000)}` : apiMessage;
        continue;
      }
      throw new PermanentSendError(`WhatsApp refused the message: ${apiMessage}`);
    }
    throw new TransientSendError(`WhatsApp did not accept the message yet (${last}).`);
  };
  return {
    name: 'cloud-api',
    async send(doc) {
      const media = await call('/media', () => {
        const form = new FormData();
        form.append('messaging_product', 'whatsapp');
        form.append('type', doc.contentType);
        form.append('file', new Blob([new Uint8Array(doc.body)], { type: doc.contentType }), doc.fileName);
        return { method: 'POST', body: form };
      });
      const mediaId = z.object({ id: z.string().min(1) }).safeParse(media);
      if (!mediaId.success) throw new TransientSendError('WhatsApp answered the upload without a media id.');
      const sent = await call('/messages', () => ({
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to: doc.to.replace(/^\+/, ''),
          type: 'document',
          document: { id: mediaId.data.id, filename: doc.fileName, caption: doc.caption },
        }),
      }));
      const messageId = z.object({ messages: z.array(z.object({ id: z.string() })).min(1) }).safeParse(sent);
      if (!messageId.success) throw new TransientSendError('WhatsApp answered the message without an id.');
      return { transport: 'cloud-api', status: 'accepted', messageId: messageId.data.messages[0]!.id };
    },
  };
}

function errorMessage(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: { message?: string; code?: number } };
    return body.error?.message
      ? `${body.error.message}${body.error.code ? ` (code ${body.error.code})` : ''}`
      : undefined;
  } catch {
    return text.slice(0, 200) || undefined;
  }
}

const transportEnv = z.object({
  BAHI_WHATSAPP_TRANSPORT: z
    .enum(['outbox', 'cloud-api'], { error: 'must be outbox or cloud-api' })
    .default('outbox'),
  WHATSAPP_TOKEN: z.string().min(1).optional(),
  WHATSAPP_PHONE_NUMBER_ID: z.string().min(1).optional(),
  WHATSAPP_API_URL: z.url().default('https://graph.facebook.com/v21.0'),
});

/** The transport the environment asks for; cloud-api needs the token and phone-number id. */
export function transportFromEnv(env: NodeJS.ProcessEnv): WhatsAppTransport {
  // An empty variable (docker-compose's ${X:-}) counts as unset.
  const c = transportEnv.parse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (c.BAHI_WHATSAPP_TRANSPORT === 'outbox') return outboxTransport;
  if (!c.WHATSAPP_TOKEN || !c.WHATSAPP_PHONE_NUMBER_ID)
    throw new Error('BAHI_WHATSAPP_TRANSPORT=cloud-api needs WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID');
  return cloudApiTransport({
    token: c.WHATSAPP_TOKEN,
    phoneNumberId: c.WHATSAPP_PHONE_NUMBER_ID,
    baseUrl: c.WHATSAPP_API_URL,
  });
}
