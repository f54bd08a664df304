/** Requests for access sent from the site's form, kept for the operators. */
import type { Knex } from 'knex';

export interface AccessRequestInput {
  name: string;
  email: string;
  company: string | null;
  plan: string;
  message: string | null;
}

export interface AccessRequest extends AccessRequestInput {
  id: number;
  createdAt: string;
}

export function createAccessRequestsStore(db: Knex) {
  return {
    async add(input: AccessRequestInput): Promise<number> {
      const [row] = await db('access_requests').insert(input).returning('id');
      return (row as { id: number }).id;
    },
    async list(): Promise<AccessRequest[]> {
      const rows = await db('access_requests').orderBy('id');
      return rows.map((r: AccessRequestInput & { id: number; created_at: Date }) => ({
        id: r.id,
        name: r.name,
        email: r.email,
        company: r.company,
        plan: r.plan,
        message: r.message,
        createdAt: r.created_at.toISOString(),
      }));
    },
  };
}
