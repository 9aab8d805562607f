// Types of index.mjs for the TypeScript that imports it (the cluster's tests and benchmark).
import type { Service } from './processes.mjs';

export const ROOT: string;

export interface WebServer {
  name: string;
  port: number;
  url: string;
  rtmpPort: number;
  service: Service;
}

export interface ClusterDescription {
  /** nginx, the shared cache: where browsers connect. */
  url: string;
  /** HAProxy behind it. */
  balancer: string;
  dataDir: string;
  logDir: string;
  webs: { name: string; url: string; pid: number | undefined; rtmpPort: number }[];
  /** HAProxy's RTMP front door (publishers land on either app server). */
  rtmpUrl: string;
  worker: { pid: number | undefined };
  database: {
    /** Superuser URLs through HAProxy: the primary of the moment, a replica of the moment. */
    primary: string;
    replica: string;
    app: string;
    /** The Patroni members: each one's PostgreSQL (superuser) and REST API. */
    members: { name: string; url: string; api: string }[];
  };
  s3: Record<string, string>;
}

export interface Cluster {
  dir: string;
  url: string;
  balancer: string;
  dataDir: string;
  logDir: string;
  ports: {
    edge: number;
    lb: number;
    primary: number;
    replica: number;
    etcd: { client: number; peer: number }[];
    pg: number[];
    api: number[];
    pgbouncer: number;
    s3: number;
    web: number[];
    rtmp: number[];
    rtmpLb: number;
  };
  env: Record<string, string | undefined>;
  webs: WebServer[];
  worker: Service;
  db: {
    etcd: Service[];
    members: { name: string; pgPort: number; apiPort: number; dataDir: string; service: Service }[];
    appUrl(port: number): string;
    superuserUrl(port: number): string;
    /** Patroni's GET /cluster members (name, role: leader | sync_standby | replica, state, timeline, lag). */
    clusterState(): Promise<{ name: string; role: string; state: string; timeline?: number; lag?: number | string }[]>;
    leaderName(): Promise<string | undefined>;
    streamingReplicas(): Promise<string[]>;
    /** Replay paused on every replica, Patroni in maintenance mode meanwhile (it would resume replay). */
    pauseReplay(): Promise<void>;
    resumeReplay(): Promise<void>;
    stopReplicas(): Promise<void>;
    startStopped(): Promise<void>;
    startMember(name: string): void;
    postmasterPid(name: string): number | undefined;
    killPrimaryPostmaster(): Promise<string>;
    killPrimaryMember(): Promise<string>;
    stop(): Promise<void>;
  };
  store: { service: Service; bucket: string; mediaPath: string; env: Record<string, string> };
  haproxy: Service;
  adminSocket: string;
  isUp(name: string): Promise<boolean>;
  upIn(backend: 'postgres_primary' | 'postgres_replicas'): Promise<string[]>;
  killWeb(name: string): Promise<void>;
  stopWeb(name: string): Promise<void>;
  startWeb(name: string): Promise<void>;
  setWebState(name: string, state: 'ready' | 'maint' | 'drain'): Promise<void>;
  stop(): Promise<void>;
  describe(): ClusterDescription;
}

export function haproxyCommand(socketPath: string, command: string): Promise<string>;

export function startCluster(options: {
  dir: string;
  port?: number;
  appEnv?: Record<string, string>;
  log?: (line: string) => void;
}): Promise<Cluster>;
