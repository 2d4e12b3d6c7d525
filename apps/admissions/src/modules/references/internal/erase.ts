import type { SQL } from "bun";

/**
 * An erased applicant's references go with their applications' content (data rights): the
 * rows (referees' names and addresses, what they wrote) are deleted here; the uploaded files'
 * storage keys are returned for the caller to delete after its commit.
 */
export async function eraseReferences(tx: SQL, applicantId: string): Promise<string[]> {
  const files = (await tx`SELECT storage_key FROM reference_requests
    WHERE storage_key IS NOT NULL AND application_id IN
      (SELECT id FROM applications WHERE applicant_id = ${applicantId})`) as {
    storage_key: string;
  }[];
  await tx`DELETE FROM reference_requests WHERE application_id IN
    (SELECT id FROM applications WHERE applicant_id = ${applicantId})`;
  return files.map((file) => file.storage_key);
}
