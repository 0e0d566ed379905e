/**
 * Spec §2 On-premise: Used and Total are durations computed from the stored numbers (seconds of
 * audio) multiplied by 1000, i.e. milliseconds, shown as whole hours and minutes.
 */
export function hoursAndMinutes(storedSeconds: number): { hours: number; minutes: string } {
  const milliseconds = Math.max(0, storedSeconds) * 1000;
  const totalMinutes = Math.floor(milliseconds / 60_000);
  return { hours: Math.floor(totalMinutes / 60), minutes: String(totalMinutes % 60).padStart(2, '0') };
}
