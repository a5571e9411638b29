/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}
declare module "@remix-run/server-runtime" {
  interface Future {
    v3_singleFetch: true;
  }
  interface AppLoadContext {
    requestId: string;
    clientIp: string;
  }
}
export {};
