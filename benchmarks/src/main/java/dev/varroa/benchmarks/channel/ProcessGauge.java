package dev.varroa.benchmarks.channel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a process's resident memory, threads and CPU time from /proc (Linux), and its heap through
 * {@code jcmd}. Each jcmd call attaches to the JVM, which starts its "Attach Listener" thread for good:
 * count threads before the first jcmd.
 */
public final class ProcessGauge {

  /** USER_HZ, the unit of utime and stime in /proc/[pid]/stat: fixed at 100 by the kernel's ABI on x86 and arm64. */
  private static final long CLOCK_TICKS_PER_SECOND = 100;
  // Top-level lines of GC.heap_info: one for G1's heap, one per generation for Serial and Parallel.
  private static final Pattern HEAP_SPACE = Pattern.compile("^ (?!Metaspace)\\S.*?\\s+total (\\d+)K, used (\\d+)K",
      Pattern.MULTILINE);
  private static final Pattern METASPACE_USED = Pattern.compile("Metaspace\\s+used (\\d+)K, committed (\\d+)K");
  private static final long JCMD_TIMEOUT_SECONDS = 60;

  private final long pid;

  public ProcessGauge(long pid) {
    this.pid = pid;
  }

  /** VmRSS in KiB. */
  public long residentKib() {
    return statusField("VmRSS");
  }

  /** VmHWM (the peak resident set so far) in KiB. */
  public long peakResidentKib() {
    return statusField("VmHWM");
  }

  /** RssAnon: heap, metaspace, stacks, malloc, code cache. */
  public long anonymousResidentKib() {
    return statusField("RssAnon");
  }

  /** RssFile: mapped files (libjvm.so, the CDS archive, jars the JVM maps). */
  public long fileResidentKib() {
    return statusField("RssFile");
  }

  public long threads() {
    return statusField("Threads");
  }

  /** utime + stime in nanoseconds of CPU. */
  public long cpuNanos() {
    String stat = read("stat");
    // The command name in parentheses may hold spaces; fields are counted after its closing parenthesis.
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    return ticks * 1_000_000_000L / CLOCK_TICKS_PER_SECOND;
  }

  /** A full GC in the process, then its heap and metaspace as {@code GC.heap_info} reports them. */
  public HeapFigures heapAfterFullGc() {
    jcmd("GC.run");
    String info = jcmd("GC.heap_info");
    Matcher heap = HEAP_SPACE.matcher(info);
    long used = 0;
    long committed = 0;
    boolean found = false;
    while (heap.find()) {
      found = true;
      committed += Long.parseLong(heap.group(1));
      used += Long.parseLong(heap.group(2));
    }
    Matcher metaspace = METASPACE_USED.matcher(info);
    if (!found || !metaspace.find()) {
      throw new IllegalStateException("unexpected GC.heap_info output from pid " + pid + ":\n" + info);
    }
    return new HeapFigures(used, committed, Long.parseLong(metaspace.group(1)), Long.parseLong(metaspace.group(2)));
  }

  /** Native Memory Tracking's summary; the process must run with -XX:NativeMemoryTracking=summary. */
  public String nativeMemorySummary() {
    return jcmd("VM.native_memory summary scale=KB");
  }

  /** The value of one -XX flag as the running JVM has it (VM.flags), e.g. MaxHeapSize in bytes. */
  public String vmFlag(String name) {
    Matcher flag = Pattern.compile("-XX:" + Pattern.quote(name) + "=(\\S+)").matcher(jcmd("VM.flags"));
    return flag.find() ? flag.group(1) : "unset";
  }

  /** Heap and metaspace in KiB. */
  public record HeapFigures(long heapUsedKib, long heapCommittedKib, long metaspaceUsedKib,
      long metaspaceCommittedKib) {
  }

  private long statusField(String name) {
    for (String line : read("status").split("\n")) {
      if (line.startsWith(name + ":")) {
        return Long.parseLong(line.substring(name.length() + 1).replace("kB", "").strip());
      }
    }
    throw new IllegalStateException("/proc/" + pid + "/status has no " + name + " (did the process exit?)");
  }

  private String read(String file) {
    try {
      return Files.readString(Path.of("/proc", Long.toString(pid), file), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read /proc/" + pid + "/" + file + " (did the process exit?)", e);
    }
  }

  private String jcmd(String command) {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    List<String> line = new ArrayList<>(List.of(Files.isExecutable(jcmd) ? jcmd.toString() : "jcmd",
        Long.toString(pid)));
    line.addAll(List.of(command.split(" ")));
    try {
      Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
      process.getOutputStream().close();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(JCMD_TIMEOUT_SECONDS, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IllegalStateException("jcmd " + pid + " " + command + " failed:\n" + output);
      }
      return output;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + line, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + line, e);
    }
  }
}
