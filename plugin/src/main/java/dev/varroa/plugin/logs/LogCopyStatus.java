package dev.varroa.plugin.logs;

/**
 * The console log copies now.
 *
 * @param runs runs with a copy on disk
 * @param usedBytes bytes the copies hold
 * @param capBytes VARROA_LOG_SPOOL_BYTES
 * @param notCopiedBytes bytes Jenkins' logs received that were not copied (cap reached), since Jenkins started
 * @param cutRuns runs whose copy was cut at the cap, since Jenkins started
 */
public record LogCopyStatus(int runs, long usedBytes, long capBytes, long notCopiedBytes, long cutRuns) {
}
