package dev.varroa.cli.input;

import dev.varroa.api.v1alpha1.Names;
import dev.varroa.api.v1alpha1.VarroaKinds;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The objects found in the files and folders given with -f: every YAML document of every
 * .yaml/.yml file, Varroa kinds typed, anything else (Flux sources, Secrets) kept generic.
 */
public final class ManifestSet {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private final List<HasMetadata> objects;

  private ManifestSet(List<HasMetadata> objects) {
    this.objects = List.copyOf(objects);
  }

  /** Reads every document; a file that is not YAML is invalid input naming the file. */
  public static ManifestSet read(List<Path> paths) {
    List<HasMetadata> objects = new ArrayList<>();
    for (Path path : paths) {
      for (Path file : yamlFiles(path)) {
        objects.addAll(readFile(file));
      }
    }
    return new ManifestSet(objects);
  }

  private static List<Path> yamlFiles(Path path) {
    if (!Files.exists(path)) {
      throw new InvalidInputException("-f " + path + ": no such file or folder");
    }
    if (Files.isRegularFile(path)) {
      return List.of(path);
    }
    try (Stream<Path> files = Files.walk(path)) {
      return files.filter(Files::isRegularFile).filter(f -> f.toString().matches(".*\\.ya?ml$")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + path, e);
    }
  }

  private static List<HasMetadata> readFile(Path file) {
    List<HasMetadata> found = new ArrayList<>();
    Load load = new Load(LoadSettings.builder().setLabel(file.toString()).setMaxAliasesForCollections(50).build());
    try {
      for (Object document : load.loadAllFromString(Files.readString(file))) {
        if (document == null) {
          continue;
        }
        if (!(document instanceof Map<?, ?> map) || !map.containsKey("kind") || !map.containsKey("apiVersion")) {
          throw new InvalidInputException(file + ": a document without apiVersion and kind; -f takes Kubernetes objects");
        }
        found.add(typed(map));
      }
    } catch (IOException e) {
      throw new InvalidInputException(file + ": cannot read: " + e.getMessage());
    } catch (RuntimeException e) {
      if (e instanceof InvalidInputException) {
        throw e;
      }
      throw new InvalidInputException(file + ": not valid YAML: " + e.getMessage());
    }
    return found;
  }

  private static HasMetadata typed(Map<?, ?> document) {
    String apiVersion = String.valueOf(document.get("apiVersion"));
    String kind = String.valueOf(document.get("kind"));
    if (apiVersion.equals(Names.API_VERSION) && VarroaKinds.ALL.stream().anyMatch(c -> c.getSimpleName().equals(kind))) {
      return SERIALIZATION.convertValue(document, VarroaKinds.byKind(kind));
    }
    return SERIALIZATION.convertValue(document, GenericKubernetesResource.class);
  }

  /** Every object of a kind, in the order read. */
  public <T extends HasMetadata> List<T> all(Class<T> type) {
    return objects.stream().filter(type::isInstance).map(type::cast).toList();
  }

  /** The generic object of an API group ("" for core) and kind with a name, e.g. a Flux GitRepository. */
  public Optional<GenericKubernetesResource> generic(String group, String kind, String name) {
    return objects.stream()
        .filter(o -> o instanceof GenericKubernetesResource)
        .map(GenericKubernetesResource.class::cast)
        .filter(o -> o.getKind().equals(kind)
            && (group.isEmpty() ? o.getApiVersion().equals("v1") : o.getApiVersion().startsWith(group + "/"))
            && o.getMetadata() != null && name.equals(o.getMetadata().getName()))
        .findFirst();
  }

  public <T extends HasMetadata> Optional<T> named(Class<T> type, String name) {
    return all(type).stream().filter(o -> o.getMetadata() != null && name.equals(o.getMetadata().getName())).findFirst();
  }
}
