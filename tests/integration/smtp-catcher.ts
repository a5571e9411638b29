/**
 * A real SMTP server on a free loopback port for the enclosing describe block: the app's mailer
 * is pointed at it before the block's tests and back to the outbox after. Returns the list the
 * received messages are pushed to (envelope sender and recipients, and the raw message).
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll } from "vitest";
import type { TestApp } from "./app-helpers";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** @param app the test app (a getter: it is started in the file's own beforeAll) */
export function catchSmtp(app: () => TestApp): ReceivedMail[] {
  let server: SMTPServer;
  const received: ReceivedMail[] = [];
  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString("utf8"),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    app().setSmtpUrl(`smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`);
  });
  afterAll(async () => {
    app().setSmtpUrl(null);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return received;
}
