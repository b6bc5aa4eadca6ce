/**
 * The parts of a service worker's global scope that ours uses. The project compiles against
 * the DOM library, whose declarations clash with TypeScript's "webworker" library, so the few
 * types the worker needs are written here instead (after the Service Worker and Push API specs).
 */

export interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}

export interface PushEvent extends ExtendableEvent {
  readonly data: { json(): unknown; text(): string } | null;
}

export interface NotificationClickEvent extends ExtendableEvent {
  readonly notification: Notification;
}

export interface WindowClient {
  readonly url: string;
  readonly focused: boolean;
  readonly visibilityState: DocumentVisibilityState;
  postMessage(message: unknown, transfer?: Transferable[]): void;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}

export interface Clients {
  matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<WindowClient[]>;
  openWindow(url: string): Promise<WindowClient | null>;
  claim(): Promise<void>;
}

export interface ServiceWorkerScope {
  readonly registration: ServiceWorkerRegistration;
  readonly clients: Clients;
  readonly location: Location;
  skipWaiting(): Promise<void>;
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "push", listener: (event: PushEvent) => void): void;
  addEventListener(type: "notificationclick", listener: (event: NotificationClickEvent) => void): void;
}
