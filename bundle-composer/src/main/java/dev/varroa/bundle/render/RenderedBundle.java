package dev.varroa.bundle.render;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleProblem;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One render's output (BUNDLES.md §5): the bytes of {@code jcasc.yaml}, {@code plugins.txt} and
 * {@code bundle.lock.json}, the lock as a value, the variables' values, and the provenance of every
 * JCasC value. Immutable; two renders are equal when their three files are byte-equal.
 */
public final class RenderedBundle {
  public static final String JCASC_FILE = "jcasc.yaml";
  public static final String PLUGINS_FILE = "plugins.txt";
  public static final String LOCK_FILE = LockReader.FILE;

  private final byte[] jcascYaml;
  private final byte[] pluginsTxt;
  private final byte[] lockJson;
  private final BundleLock lock;
  private final Map<String, String> variables;
  private final Provenance provenance;

  RenderedBundle(byte[] jcascYaml, byte[] pluginsTxt, byte[] lockJson, BundleLock lock, Map<String, String> variables,
      Provenance provenance) {
    this.jcascYaml = jcascYaml.clone();
    this.pluginsTxt = pluginsTxt.clone();
    this.lockJson = lockJson.clone();
    this.lock = lock;
    this.variables = Collections.unmodifiableSortedMap(new TreeMap<>(variables));
    this.provenance = provenance;
  }

  /**
   * A render read back from its three files (e.g. the one last applied), for {@link BundleDiff}.
   * Its provenance knows only lines of jcasc.yaml, and its variables' values are unknown (empty).
   *
   * @throws BundleException INVALID when a file is malformed or the lock's digest does not match the files
   */
  public static RenderedBundle read(byte[] jcascYaml, byte[] pluginsTxt, byte[] lockJson) throws BundleException {
    BundleLock lock = LockReader.read(lockJson);
    String digest = BundleDigest.of(jcascYaml, pluginsTxt);
    if (!digest.equals(lock.digest())) {
      throw new BundleException(new BundleProblem(BundleProblem.Kind.INVALID, null, LOCK_FILE, "digest",
          "the lock's digest " + lock.digest() + " does not match jcasc.yaml and plugins.txt (" + digest + ")",
          "keep the three files of one render together; render again to get a matching set"));
    }
    Problems problems = new Problems();
    JcascMerger tree = new JcascMerger(problems);
    Source rendered = new Source("rendered", "rendered bundle " + digest);
    try {
      YamlReader.read(jcascYaml).ifPresent(root -> tree.merge(new Fragment(rendered, JCASC_FILE, root)));
    } catch (YamlReadException e) {
      problems.unreadable(rendered, JCASC_FILE, e);
    }
    problems.throwIfAny();
    return new RenderedBundle(jcascYaml, pluginsTxt, lockJson, lock, Map.of(),
        new Provenance(tree.root(), List.of()));
  }

  public byte[] jcascYaml() {
    return jcascYaml.clone();
  }

  public byte[] pluginsTxt() {
    return pluginsTxt.clone();
  }

  public byte[] lockJson() {
    return lockJson.clone();
  }

  public String jcascText() {
    return new String(jcascYaml, StandardCharsets.UTF_8);
  }

  public String pluginsText() {
    return new String(pluginsTxt, StandardCharsets.UTF_8);
  }

  public String lockText() {
    return new String(lockJson, StandardCharsets.UTF_8);
  }

  /** {@code sha256:<64 hex>} over jcasc.yaml, {@code \n---\n}, plugins.txt. */
  public String digest() {
    return lock.digest();
  }

  public BundleLock lock() {
    return lock;
  }

  /** The three files by name, in the order render writes them. */
  public Map<String, byte[]> files() {
    Map<String, byte[]> files = new LinkedHashMap<>();
    files.put(JCASC_FILE, jcascYaml());
    files.put(PLUGINS_FILE, pluginsTxt());
    files.put(LOCK_FILE, lockJson());
    return Collections.unmodifiableMap(files);
  }

  /** The values of the variables the inputs' variables.yaml define (a later input's value wins), by name. */
  public Map<String, String> variables() {
    return variables;
  }

  public Provenance provenance() {
    return provenance;
  }

  /** Shorthand for {@code provenance().explain(path)}. */
  public Optional<Explanation> explain(String path) {
    return provenance.explain(path);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof RenderedBundle that && Arrays.equals(jcascYaml, that.jcascYaml)
        && Arrays.equals(pluginsTxt, that.pluginsTxt) && Arrays.equals(lockJson, that.lockJson);
  }

  @Override
  public int hashCode() {
    return lock.digest().hashCode();
  }

  @Override
  public String toString() {
    return "RenderedBundle[" + lock.digest() + "]";
  }
}
