package dev.varroa.testfixtures.jenkins;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A bean as Stapler's export layer (org.kohsuke.stapler.export.Model) writes it: a {@code _class} where
 * ClassAttributeBehaviour.IF_NEEDED prints one, and properties sorted by name, each with its {@code @Exported}
 * visibility.
 */
final class ExportedObject {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String className;
    private final Map<String, Property> properties = new TreeMap<>();

    private record Property(int visibility, boolean inline, Object value) {
    }

    /** {@code className} is null where the runtime class equals the declared type, as IF_NEEDED leaves it out. */
    ExportedObject(String className) {
        this.className = className;
    }

    ExportedObject with(String name, Object value) {
        return with(name, 1, value);
    }

    ExportedObject with(String name, int visibility, Object value) {
        properties.put(name, new Property(visibility, false, value));
        return this;
    }

    /** {@code @Exported(inline = true)}: the property's children stay at the parent's depth. */
    ExportedObject inline(String name, Object value) {
        properties.put(name, new Property(1, true, value));
        return this;
    }

    /** As hudson.model.Api#doJson: {@code tree} wins over {@code depth}, and depth 0 becomes ByDepth(1). */
    String render(String tree, int depth) {
        Pruner pruner = tree != null ? ByTree.parse(tree) : new ByDepth(1 - depth);
        return write(this, pruner).toString();
    }

    private static ObjectNode write(ExportedObject object, Pruner pruner) {
        ObjectNode node = JSON.createObjectNode();
        if (object.className != null) {
            node.put("_class", object.className);
        }
        object.properties.forEach((name, property) -> {
            Pruner child = pruner.accept(name, property);
            if (child != null) {
                node.set(name, value(property.value(), child));
            }
        });
        return node;
    }

    private static JsonNode value(Object value, Pruner pruner) {
        if (value == null) {
            return NullNode.getInstance();
        }
        if (value instanceof ExportedObject object) {
            return write(object, pruner);
        }
        if (value instanceof List<?> list) {
            ArrayNode array = JSON.createArrayNode();
            list.forEach(element -> array.add(value(element, pruner)));
            return array;
        }
        return JSON.valueToTree(value);
    }

    private interface Pruner {
        /** Null when the property is not written, else the pruner for the property's own children. */
        Pruner accept(String name, Property property);
    }

    /** TreePruner.ByDepth: a property shows while its visibility reaches the depth counter. */
    private record ByDepth(int n) implements Pruner {
        @Override
        public Pruner accept(String name, Property property) {
            if (property.visibility() < n) {
                return null;
            }
            return property.inline() ? this : new ByDepth(n + 1);
        }
    }

    /** NamedPathPruner: exactly the named properties, e.g. {@code a,b[c,d{0,5}]}; ranges are accepted and ignored. */
    private record ByTree(Map<String, ByTree> children) implements Pruner {

        @Override
        public Pruner accept(String name, Property property) {
            return children.get(name);
        }

        static ByTree parse(String spec) {
            int[] at = {0};
            ByTree tree = parseList(spec, at);
            if (at[0] != spec.length()) {
                throw new IllegalArgumentException("unexpected '" + spec.charAt(at[0]) + "' at " + at[0] + " in tree=" + spec);
            }
            return tree;
        }

        private static ByTree parseList(String spec, int[] at) {
            Map<String, ByTree> children = new LinkedHashMap<>();
            while (at[0] < spec.length() && spec.charAt(at[0]) != ']') {
                int start = at[0];
                while (at[0] < spec.length() && ",[]{".indexOf(spec.charAt(at[0])) < 0) {
                    at[0]++;
                }
                String name = spec.substring(start, at[0]).trim();
                ByTree child = new ByTree(Map.of());
                if (at[0] < spec.length() && spec.charAt(at[0]) == '[') {
                    at[0]++;
                    child = parseList(spec, at);
                    expect(spec, at, ']');
                }
                if (at[0] < spec.length() && spec.charAt(at[0]) == '{') {
                    int close = spec.indexOf('}', at[0]);
                    if (close < 0) {
                        throw new IllegalArgumentException("unclosed range in tree=" + spec);
                    }
                    at[0] = close + 1;
                }
                if (!name.isEmpty()) {
                    children.put(name, child);
                }
                if (at[0] < spec.length() && spec.charAt(at[0]) == ',') {
                    at[0]++;
                }
            }
            return new ByTree(children);
        }

        private static void expect(String spec, int[] at, char wanted) {
            if (at[0] >= spec.length() || spec.charAt(at[0]) != wanted) {
                throw new IllegalArgumentException("expected '" + wanted + "' at " + at[0] + " in tree=" + spec);
            }
            at[0]++;
        }
    }
}
