/** @module The subscriptions domain's public surface: MCP resource subscriptions and their streams. */
export {
  INBOX_URI,
  isSessionId,
  newSessionId,
  STREAM_HEARTBEAT_SECONDS,
  STREAMS_PER_AGENT,
  SUBSCRIBABLE,
  SUBSCRIPTION_GRACE_SECONDS,
  SUBSCRIPTIONS_PER_AGENT,
} from "./schemas.ts";
export {
  attachStream,
  detachStream,
  matchWakeup,
  renewStreams,
  type StreamKey,
} from "./streams.ts";
export { endSubscriptionSession, subscribeResource, unsubscribeResource } from "./subscribe.ts";
