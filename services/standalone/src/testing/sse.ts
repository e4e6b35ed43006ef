export interface Message {
  id?: string;
  event?: string;
  data?: unknown;
}

/** Reads an SSE response as a browser's EventSource would, one message at a time. */
export function messages(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(timeoutMs = 5000): Promise<Message> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const message: Message = {};
          for (const line of block.split('\n')) {
            const [field, ...rest] = line.split(':');
            const value = rest.join(':').trimStart();
            if (field === 'id') message.id = value;
            else if (field === 'event') message.event = value;
            else if (field === 'data') message.data = JSON.parse(value);
          }
          if (message.event || message.data !== undefined) return message; // heartbeats are comments
          continue;
        }
        if (Date.now() > deadline) throw new Error('no message in time');
        const { value, done } = await Promise.race([
          reader.read(),
          new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error('no message in time')), deadline - Date.now()),
          ),
        ]);
        if (done) throw new Error('stream ended');
        buffer += decoder.decode(value, { stream: true });
      }
    },
    close: () => reader.cancel(),
  };
}
