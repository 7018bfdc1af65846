package dev.mailrun.campaign.suppression;

import dev.mailrun.csv.AddressColumns;
import java.nio.file.Path;
import java.util.List;

/**
 * The column of a suppression list that holds the address, found by the rule every import reads a
 * header row by ({@link AddressColumns}).
 *
 * @param index the column's position; rows are read by position, so a header naming other columns
 *              twice does not matter
 */
record AddressColumn(String name, int index, int width) {

    static AddressColumn find(Path file, List<String> header) {
        AddressColumns.Found found = AddressColumns.find(header);
        if (found instanceof AddressColumns.Column c) {
            return new AddressColumn(c.name(), c.index(), header.size());
        }
        throw new SuppressionFileException(file, ((AddressColumns.Refused) found).reason());
    }
}
