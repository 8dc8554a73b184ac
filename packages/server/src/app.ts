import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { recordAttemptsStatements } from './activity/activity.repository.js';
import { recordLaunchAttempts } from './activity/activity-hook.js';
import { ActivityRecorder } from './activity/activity-recorder.js';
import type { AppContext } from './app-context.js';
import { type Clock, systemClock } from './clock.js';
import type { Config } from './config.js';
import { consoleEarlyAnswer, registerConsole } from './console/console.routes.js';
import type { Db } from './db/schema.js';
import type { SessionStore } from './db/session-store.js';
import { homeRoutes } from './home/home.routes.js';
import { registerBodyParsers } from './http/body/body-parsers.js';
import { BODY_LIMIT_BYTES } from './http/body/limits.js';
import { parseQueryString, registerQueryStringCheck } from './http/body/query-string.js';
import { forwardingHeadersNotice } from './http/caller-address.js';
import { registerErrorHandler } from './http/error-handler.js';
import { logOutput, reportLogOutputFailure, turnBatched } from './http/log-destination.js';
import {
  noteRouteLiterals,
  RequestLogController,
  scrubbingDestination,
  serializeError,
  serializeRequest,
} from './http/logging.js';
import {
  answerConnect,
  answerUnmetExpectations,
  assertHostHeader,
  clientErrorHandler,
  earlyAnswerNotes,
  frameworkErrorHandler,
  MAX_PARAM_LENGTH,
  routedRequests,
} from './http/protocol-errors.js';
import { MemoryQuotaStore, type QuotaStore } from './http/quota-store.js';
import { type QuotaMetrics, RateLimiter } from './http/rate-limit.js';
import { commonHeaders } from './http/raw-error.js';
import { RedisQuotaStore } from './http/redis-quota-store.js';
import { requestIdFrom } from './http/request-id.js';
import { RouteDirectory } from './http/route-suggestion.js';
import { registerRoutes } from './http/routes.js';
import { v2Routes } from './launch/v2/v2.routes.js';
import { v3Routes } from './launch/v3/v3.routes.js';
import type { LiveConfig } from './live-config/live-config.js';
import { registerOpenApi } from './openapi/register-openapi.js';
import { assertNotDraining, registerDraining, type ServiceState, serviceState } from './ops/draining.js';
import { healthRoutes } from './ops/health.routes.js';
import { registerInstanceHeartbeat } from './ops/instance-heartbeat.js';
import { createMetrics, type Metrics } from './ops/metrics.js';
import { metricsRoutes } from './ops/metrics.routes.js';
import { type PurgeJobOptions, registerPurgeJob } from './ops/purge-job.js';
import { registerRequestMetrics, requestObserver } from './ops/request-metrics.js';
import { WriteHealth } from './ops/write-health.js';
import { pageRoutes } from './pages/pages.routes.js';
import { RepeatedFailure } from './repeated-failure.js';
import { sessionControlRoutes } from './session-control/session-control.routes.js';
import { tokenRoutes } from './token/token.routes.js';
import { signatureTesterRoutes } from './tools/signature-tester.routes.js';
import { registerWebhookJobs, type WebhookJobOptions } from './webhooks/webhook-jobs.js';

/** A connection with no traffic either way for this long is cut (a client that stopped reading). */
const SOCKET_IDLE_TIMEOUT_MS = 60_000;

export interface AppOptions {
  config: Config;
  db: Db;
  /** The hot path's store (launches, logouts, token lookups); closed by whoever opened it. */
  sessions: SessionStore;
  /** Clients, settings, currencies and API users in memory; refreshed by whoever loaded it. */
  live: LiveConfig;
  clock?: Clock;
  /** Where JSON log lines go (default stdout); tests read them to prove no secret is logged. */
  logStream?: DestinationStream;
  /** Where the app counts; default a fresh set (server.ts passes its own to count database connection losses). */
  metrics?: Metrics;
  /** The background purge's timing (tests shorten it). */
  purge?: PurgeJobOptions;
  /** The webhook deliverer's and expiry scan's timing (tests shorten them). */
  webhooks?: WebhookJobOptions;
  /** Default a fresh one; server.ts passes its own to turn readiness off at a signal (closeOnSignals). */
  state?: ServiceState;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Launch attempts recorded for the console; undefined with ACTIVITY_RECORDS=off. */
    activity: { flush(): Promise<void> } | undefined;
  }
}

/** Builds the HTTP app from its dependencies; never listens (see server.ts). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const clock = options.clock ?? systemClock;
  const metrics = options.metrics ?? createMetrics();
  // A turn's lines as one write to stdout, as it takes them (log-destination.ts). Scrubbed first: no
  // credential in any line at any level, trace included (docs/design.md §10).
  const unscrubbed =
    options.logStream ??
    turnBatched(
      logOutput({
        fd: 1,
        onDrop: (lines) => metrics.logLinesDropped.inc(lines),
        onError: reportLogOutputFailure,
      }),
    );
  const logDestination = scrubbingDestination(unscrubbed);
  const observeRequest = requestObserver(metrics);
  // Answers given before any route (a bad URL, what the HTTP parser refuses, CONNECT, Expect) are counted
  // and logged like every request: no hook of a route sees them.
  const noteEarlyAnswer = earlyAnswerNotes(observeRequest, () => app.log);
  const app: FastifyInstance = Fastify({
    logger: {
      level: options.config.logLevel,
      serializers: { req: serializeRequest, err: serializeError },
      stream: logDestination,
    },
    // Its `request completed` lines come scrubbed part by part (completedLine), the cheaper way.
    logController: new RequestLogController(unscrubbed),
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: false,
    genReqId: (request) => requestIdFrom(request.headers['x-request-id'], randomUUID),
    routerOptions: { querystringParser: parseQueryString, maxParamLength: MAX_PARAM_LENGTH },
    // Every answer is a JSON:API error with X-Request-Id, also those given before any route runs.
    frameworkErrors: frameworkErrorHandler(
      options.config,
      noteEarlyAnswer,
      options.config.console ? consoleEarlyAnswer : undefined,
    ),
    clientErrorHandler: clientErrorHandler(options.config, () => app.log, noteEarlyAnswer),
    // Behind a load balancer, request.ip (logs, quotas) is the player's or integrator's address only if trusted.
    trustProxy: trustProxy(options.config),
    // Slow and stalled clients: the whole request (headers and body) within the request timeout, else
    // 408 and the connection closes; idle keep-alive connections close after the keep-alive timeout.
    requestTimeout: options.config.requestTimeoutMs,
    keepAliveTimeout: options.config.keepAliveTimeoutMs,
    // A socket with no traffic at all (a client that stopped reading the response) is cut.
    connectionTimeout: SOCKET_IDLE_TIMEOUT_MS,
    http: {
      // Answered by assertHostHeader, as a JSON:API error, instead of Node's bare 400.
      requireHostHeader: false,
      headersTimeout: options.config.requestTimeoutMs,
      // Node checks those timeouts every 30 s by default; once a second, they hold to the second.
      connectionsCheckingInterval: 1000,
    },
    // While closing, requests on connections still open are answered by registerDraining (JSON:API).
    return503OnClosing: false,
  });

  // Before any route: the logs show a path's route literals and nothing else of it (logging.ts), and a
  // 404 names the route a mistyped path most likely meant (not one that only answers 405).
  const routes = new RouteDirectory();
  app.addHook('onRoute', (route) => {
    noteRouteLiterals(route.url);
    if (route.config?.undocumented !== 'method-not-allowed') routes.note(route.method, route.url);
  });

  const rateLimiter = new RateLimiter(
    options.config.rateLimitPerMinute,
    await quotaStore(options.config, clock, app.log, () => metrics.quotaStoreFailures.inc()),
    options.config,
  );
  app.addHook('onClose', () => rateLimiter.close());
  app.decorate('quotas', rateLimiter as QuotaMetrics);
  const activity = options.config.activityRecords ? activityRecorder(options, metrics, app) : undefined;
  // Tests and the console write what it holds before they read the records.
  app.decorate('activity', activity);
  const writeHealth = new WriteHealth(() => metrics.readinessWriteProbes.inc());
  const context: AppContext = {
    config: options.config,
    db: options.db,
    live: options.live,
    sessions: writeHealth.observe(options.sessions),
    writeHealth,
    clock,
    rateLimiter,
    metrics,
    state: options.state ?? serviceState(),
    activity,
  };

  registerBodyParsers(app);
  registerQueryStringCheck(app);
  // Route schemas document the API; the field rules in each handler do the validating, with the spec's texts.
  // `true` passes the value as it is, where `{ value }` made an object and wrote the request part back.
  app.setValidatorCompiler(() => () => true);
  registerErrorHandler(app, rateLimiter, metrics, clock, routes);
  answerUnmetExpectations(app, options.config, noteEarlyAnswer);
  answerConnect(app, options.config, noteEarlyAnswer);
  // Every request's first checks, in this order, in one hook (a hook each cost a call and a `done`
  // more); each rule stays in its own module. A callback, not an async function: a promise per hook adds up.
  const noticeForwarding = forwardingHeadersNotice(app, options.config);
  const watchRouted = routedRequests(observeRequest, unscrubbed);
  app.addHook('onRequest', (request, reply, done) => {
    watchRouted(request, reply);
    reply.headers(commonHeaders(request.id, options.config));
    assertHostHeader(request);
    assertNotDraining(request, context.state);
    noticeForwarding?.(request);
    done();
  });
  registerDraining(app, context.state);
  registerRequestMetrics(app, observeRequest);
  registerPurgeJob(app, context, options.purge);
  registerWebhookJobs(app, context, options.webhooks);
  registerInstanceHeartbeat(app, context);
  // Before the launch routes are registered: it hooks them as they are.
  // The system clock's time without a Date made for it (a Date a launch: 0.5 % of its event loop, CPU profile).
  const nowMs = clock === systemClock ? Date.now : () => clock().getTime();
  if (activity) recordLaunchAttempts(app, options.live, activity, nowMs);

  // After the hooks (its pages get them too), before any route (it documents those registered after it).
  await registerOpenApi(app, options.config);
  registerRoutes(
    app,
    [
      ...v2Routes(context),
      ...v3Routes(context),
      ...sessionControlRoutes(context),
      ...tokenRoutes(context),
      ...pageRoutes(context),
      ...signatureTesterRoutes(context),
      ...healthRoutes(context),
      ...metricsRoutes(context),
      ...homeRoutes(context, routes),
    ],
    rateLimiter,
  );
  if (options.config.console) await registerConsole(app, context);
  return app;
}

/** Launch attempts for the console, written in batches where the sessions are; the last ones at close. */
function activityRecorder(options: AppOptions, metrics: Metrics, app: FastifyInstance): ActivityRecorder {
  const writes = new RepeatedFailure(
    app.log,
    'could not write launch attempts; keeping them and trying again every second, said again once they are written',
    'launch attempts written again',
  );
  const recorder = new ActivityRecorder({
    write: async (attempts) => {
      await options.sessions.executeAll(recordAttemptsStatements(options.db, attempts));
    },
    onDrop: (count) => metrics.activityRecordsDropped.inc(count),
    onWriteError: (error) => writes.fails(error),
    onWritten: () => writes.works(),
  });
  app.addHook('onClose', () => recorder.close());
  return recorder;
}

/** Fastify takes the list as a mutable array; with it, request.ip is http/caller-address.ts's resolved address. */
function trustProxy(config: Config): false | string[] {
  return config.trustProxy === false ? false : [...config.trustProxy];
}

/** Quotas per instance, or shared by all through Redis when REDIS_URL is set (docs/design.md §10). */
async function quotaStore(
  config: Config,
  clock: Clock,
  log: FastifyBaseLogger,
  onFailure: () => void,
): Promise<QuotaStore> {
  const memory = new MemoryQuotaStore(clock);
  return config.redis ? RedisQuotaStore.connect(config.redis, memory, log, onFailure) : memory;
}
