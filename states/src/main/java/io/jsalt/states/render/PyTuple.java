package io.jsalt.states.render;

import java.util.AbstractList;
import java.util.List;

/**
 * A Python tuple: what Salt's {@code regex_search} and {@code regex_match} return, and the items of
 * {@code zip}/{@code product}/{@code combinations}. A list to the filters that follow; printed as Python prints a
 * tuple ({@code ('a', 'd')}, {@code ('c',)}, {@code ()}).
 */
final class PyTuple extends AbstractList<Object> {
    private final List<Object> items;

    PyTuple(List<?> items) {
        this.items = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(items));
    }

    @Override
    public Object get(int index) {
        return items.get(index);
    }

    @Override
    public int size() {
        return items.size();
    }

    @Override
    public String toString() {
        return PythonValues.repr(this);
    }
}
