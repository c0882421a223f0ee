package org.gridrun.jobs.plan;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.gridrun.jobs.UserInputException;
import org.jgrapht.Graph;
import org.jgrapht.alg.cycle.CycleDetector;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.SimpleDirectedGraph;
import org.jgrapht.nio.DefaultAttribute;
import org.jgrapht.nio.dot.DOTExporter;
import org.jgrapht.traverse.TopologicalOrderIterator;

/**
 * The experiments of a plan and what each waits for: an edge {@code a → b} means b starts only after a completed.
 *
 * <p>Built from the grid's {@code after:} declarations; a cycle is rejected when the graph is built, naming the
 * experiments on it.
 */
public final class JobGraph {
    private static final int NAMED_IN_CYCLE = 8;

    private final Graph<String, DefaultEdge> graph = new SimpleDirectedGraph<>(DefaultEdge.class);
    private final Map<String, PlannedExperiment> byId = new LinkedHashMap<>();
    private final Map<String, Integer> positions = new java.util.HashMap<>();
    private List<PlannedExperiment> order;

    /** One dependency: {@code dependent} waits for {@code prerequisite}, both experiment ids. */
    public record Edge(String prerequisite, String dependent) {
    }

    private JobGraph() {
    }

    /**
     * The graph of {@code experiments} and {@code edges}.
     *
     * @throws UserInputException when the edges form a cycle; the message names experiments on it
     */
    public static JobGraph of(List<PlannedExperiment> experiments, List<Edge> edges) {
        JobGraph g = new JobGraph();
        for (PlannedExperiment e : experiments) {
            g.byId.put(e.record().id(), e);
            g.positions.put(e.record().id(), g.positions.size());
        }
        if (!edges.isEmpty()) {
            g.byId.keySet().forEach(g.graph::addVertex);
        }
        for (Edge edge : edges) {
            if (!edge.prerequisite().equals(edge.dependent())) {
                g.graph.addEdge(edge.prerequisite(), edge.dependent());
            } else {
                throw new UserInputException("experiment " + g.name(edge.dependent()) + " depends on itself: check "
                        + "the 'after:' of run " + g.byId.get(edge.dependent()).record().run());
            }
        }
        g.rejectCycles();
        return g;
    }

    private void rejectCycles() {
        if (graph.edgeSet().isEmpty()) {
            return;
        }
        Set<String> cycle = new CycleDetector<>(graph).findCycles();
        if (cycle.isEmpty()) {
            return;
        }
        List<String> names = cycle.stream().limit(NAMED_IN_CYCLE).map(this::name).toList();
        Set<String> runs = new java.util.TreeSet<>();
        cycle.forEach(id -> runs.add(byId.get(id).record().run()));
        throw new UserInputException("the 'after:' dependencies form a cycle through runs " + String.join(", ", runs)
                + "; experiments on it: " + String.join(", ", names)
                + (cycle.size() > NAMED_IN_CYCLE ? " and " + (cycle.size() - NAMED_IN_CYCLE) + " more" : ""));
    }

    /** The experiments {@code e} waits for. */
    public List<PlannedExperiment> prerequisites(PlannedExperiment e) {
        if (graph.vertexSet().isEmpty()) {
            return List.of();
        }
        List<PlannedExperiment> result = new ArrayList<>();
        for (DefaultEdge edge : graph.incomingEdgesOf(e.record().id())) {
            result.add(byId.get(graph.getEdgeSource(edge)));
        }
        return result;
    }

    /** Whether any experiment waits for another. */
    public boolean hasEdges() {
        return !graph.edgeSet().isEmpty();
    }

    /** Every experiment, each after all it waits for (ties in plan order). */
    public synchronized List<PlannedExperiment> topologicalOrder() {
        if (order != null) {
            return order;
        }
        if (graph.edgeSet().isEmpty()) {
            order = List.copyOf(byId.values());
            return order;
        }
        List<PlannedExperiment> order = new ArrayList<>(byId.size());
        new TopologicalOrderIterator<>(graph, java.util.Comparator.comparingInt(positions::get))
                .forEachRemaining(id -> order.add(byId.get(id)));
        this.order = List.copyOf(order);
        return this.order;
    }

    /**
     * The graph in Graphviz DOT: one node per experiment labelled with its name and state, one edge per dependency;
     * {@code dot -Tsvg} draws it.
     */
    public String toDot() {
        DOTExporter<String, DefaultEdge> exporter = new DOTExporter<>(id -> "e" + id);
        exporter.setGraphIdProvider(() -> "plan");
        exporter.setVertexAttributeProvider(id -> {
            PlannedExperiment e = byId.get(id);
            Map<String, org.jgrapht.nio.Attribute> attributes = new LinkedHashMap<>();
            attributes.put("label", DefaultAttribute.createAttribute(e.record().name() + "\n"
                    + (e.known() == null ? "new" : e.known().name())));
            attributes.put("run", DefaultAttribute.createAttribute(e.record().run()));
            return attributes;
        });
        StringWriter out = new StringWriter();
        if (graph.vertexSet().isEmpty()) {
            byId.keySet().forEach(graph::addVertex);
        }
        exporter.exportGraph(graph, out);
        return out.toString();
    }

    private String name(String id) {
        PlannedExperiment e = byId.get(id);
        return e == null ? id : e.record().name();
    }
}
