/** Outgoing e-mail: SMTP when SMTP_URL is set, else a JSON file per message in the outbox folder. */
import fs from "node:fs/promises";
import path from "node:path";
import { randomUUID } from "node:crypto";
import nodemailer from "nodemailer";
import { getEnv } from "~/services/env.server";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

let transport: nodemailer.Transporter | undefined;
let transportFor: string | undefined;

export async function sendMail(mail: Mail): Promise<void> {
  const env = getEnv();
  const message = { from: env.MAIL_FROM, ...mail };
  if (env.SMTP_URL) {
    if (!transport || transportFor !== env.SMTP_URL) {
      transport = nodemailer.createTransport(env.SMTP_URL);
      transportFor = env.SMTP_URL;
    }
    await transport.sendMail(message);
    return;
  }
  const json = nodemailer.createTransport({ jsonTransport: true });
  const info = await json.sendMail(message);
  await fs.mkdir(env.OUTBOX_DIR, { recursive: true });
  const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID().slice(0, 8)}.json`;
  await fs.writeFile(path.join(env.OUTBOX_DIR, name), info.message as unknown as string, "utf8");
}
