package dev.varroa.operator.updatecenter;

import java.util.SortedMap;
import java.util.SortedSet;

/**
 * What a running update center answered on {@code GET /status.json}.
 *
 * @param held every plugin version it holds, {@code id:version}
 * @param missing wanted versions it lacks, with its reason
 */
public record UpdateCenterReport(SortedSet<String> held, SortedMap<String, String> missing) {}
