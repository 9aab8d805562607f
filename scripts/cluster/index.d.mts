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
  database: { primary: string; replica: string; app: string };
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
    primary: Service;
    replica: Service;
    appUrl(port: number): string;
    superuserUrl(port: number): string;
    pauseReplay(): Promise<unknown>;
    resumeReplay(): Promise<unknown>;
    replicaState(): Promise<{ paused: boolean; lag_s: number | null }>;
    startReplica(): Promise<void>;
    stop(): Promise<void>;
  };
  store: { service: Service; bucket: string; mediaPath: string; env: Record<string, string> };
  haproxy: Service;
  adminSocket: string;
  isUp(name: string): Promise<boolean>;
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
