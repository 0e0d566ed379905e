import type { Generated } from 'kysely';

/** The licence server's licences; seconds of audio. */
export interface LicencesTable {
  id: string;
  account_id: string;
  name: string;
  key_prefix: string;
  /** The key's signed payload (base64url); the key is this signed again, never stored. */
  key_payload: string;
  max_uses: number;
  uses: Generated<number>;
  expires_at: Date;
  grace_days: number;
  suspended_at: Date | null;
  last_report_at: Date | null;
  created_at: Generated<Date>;
}

export interface LicenceUsageBatchesTable {
  licence_id: string;
  batch_id: string;
  seconds: number;
  period_start: Date;
  period_end: Date;
  via: 'online' | 'report';
  received_at: Generated<Date>;
}

/** The on-premise edition's journal of finished work, reported in batches. */
export interface LicenceUsageJournalTable {
  id: Generated<string>;
  reference: string;
  account_id: string;
  product: string;
  seconds: number;
  recorded_at: Generated<Date>;
  batch_id: string | null;
  sent_at: Date | null;
}

/** The on-premise edition's copy of the licence server's last answer. */
export interface LicenceStandingTable {
  licence_id: string;
  status: string;
  uses: number;
  max_uses: number;
  expires_at: Date;
  last_report_at: Date | null;
  last_error: string | null;
  updated_at: Generated<Date>;
}
