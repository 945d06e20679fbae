package dev.varroa.benchmarks.bundle;

import dev.varroa.api.v1alpha1.BundleInput;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.InputRef;
import dev.varroa.bundle.ResolvedInput;
import dev.varroa.bundle.compose.InputSource;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An {@link InputSource} that records when its calls ran: the window from the first revision check's start to
 * the last one's end, and the same for fetches. Calls run in parallel, so a window is wall time, not a sum.
 */
public final class TimedInputSource implements InputSource {
  private final InputSource delegate;
  private final Window revisionChecks = new Window();
  private final Window fetches = new Window();

  public TimedInputSource(InputSource delegate) {
    this.delegate = delegate;
  }

  @Override
  public String currentRevision(InputRef ref, BundleInput input) throws BundleException {
    long start = System.nanoTime();
    try {
      return delegate.currentRevision(ref, input);
    } finally {
      revisionChecks.record(start, System.nanoTime());
    }
  }

  @Override
  public ResolvedInput fetch(InputRef ref, BundleInput input, String revision) throws BundleException {
    long start = System.nanoTime();
    try {
      return delegate.fetch(ref, input, revision);
    } finally {
      fetches.record(start, System.nanoTime());
    }
  }

  public Window revisionChecks() {
    return revisionChecks;
  }

  public Window fetches() {
    return fetches;
  }

  /** First start and last end of a kind of call, in System.nanoTime() units. */
  public static final class Window {
    private final AtomicLong first = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong last = new AtomicLong(Long.MIN_VALUE);

    void record(long start, long end) {
      first.accumulateAndGet(start, Math::min);
      last.accumulateAndGet(end, Math::max);
    }

    public long firstStart() {
      return first.get();
    }

    public long lastEnd() {
      return last.get();
    }

    public double millis() {
      return last.get() == Long.MIN_VALUE ? 0 : (last.get() - first.get()) / 1e6;
    }
  }
}
