package dev.riffle.sql.planner;

import dev.riffle.sql.exec.PlannedDirectRead;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rex.RexProgram;

/**
 * Finds the plans that are one read of one table ({@link PlannedDirectRead}): what lets a server answer a
 * statement with the read's Arrow batches instead of Calcite's rows.
 *
 * <pre>{@code
 * Optional<PlannedDirectRead> direct = DirectReadMatcher.match(root);
 * }</pre>
 */
public final class DirectReadMatcher {
    private DirectReadMatcher() {}

    /**
     * The direct read of an optimized plan, when it is one: a {@link FlussScan}, possibly under a
     * calculation that only picks and renames its columns (each at most once).
     */
    public static Optional<PlannedDirectRead> match(RelRoot root) {
        RelNode rel = root.rel;
        int[] fromRel;
        FlussScan scan;
        if (rel instanceof FlussScan direct) {
            scan = direct;
            fromRel = identity(scan.getRowType().getFieldCount());
        } else if (rel instanceof EnumerableCalc calc && calc.getInput() instanceof FlussScan below) {
            RexProgram program = calc.getProgram();
            if (program.getCondition() != null) {
                return Optional.empty();
            }
            scan = below;
            fromRel = new int[program.getOutputRowType().getFieldCount()];
            for (int i = 0; i < fromRel.length; i++) {
                fromRel[i] = program.getSourceField(i);
                if (fromRel[i] < 0) {
                    return Optional.empty();
                }
            }
        } else {
            return Optional.empty();
        }
        int[] columns = new int[root.fields.size()];
        List<String> names = new ArrayList<>();
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < columns.length; i++) {
            Map.Entry<Integer, String> field = root.fields.get(i);
            columns[i] = fromRel[field.getKey()];
            if (!seen.add(columns[i])) {
                return Optional.empty(); // a column twice: its buffers cannot be handed out twice
            }
            names.add(field.getValue());
        }
        return Optional.of(new PlannedDirectRead(scan.flussTable().session(), scan.plan(), columns, names));
    }

    private static int[] identity(int size) {
        int[] all = new int[size];
        Arrays.setAll(all, i -> i);
        return all;
    }
}
