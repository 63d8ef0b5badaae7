package io.jsalt.states.render;

import com.hubspot.jinjava.lib.filter.Filter;
import java.util.ArrayList;
import java.util.List;

/**
 * The filters Salt 3006 adds to Jinja (salt/utils/jinja.py and the {@code @jinja_filter}s of salt/utils), by
 * family; where Jinjava has a filter of the same name with other semantics ({@code regex_replace}, {@code unique},
 * {@code union}, {@code ipaddr}, {@code md5}, {@code tojson}, ...), Salt's replaces it, as Salt's replaces Jinja2's.
 */
final class SaltFilters {
    private SaltFilters() {
    }

    static List<Filter> all() {
        List<Filter> all = new ArrayList<>();
        all.addAll(DataFilters.all());
        all.addAll(RegexFilters.all());
        all.addAll(TextFilters.all());
        all.addAll(HashFilters.all());
        all.addAll(ListFilters.all());
        all.addAll(DictPathFilters.all());
        all.addAll(IterFilters.all());
        all.addAll(NetworkFilters.all());
        all.add(PythonMethods.filter());
        all.add(DateFilters.strftime("strftime"));
        all.add(DateFilters.strftime("date_format"));
        return all;
    }
}
