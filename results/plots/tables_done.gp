# After the rows are extracted into datablocks: plot those, which are
# whitespace-separated and have no header.
set datafile separator whitespace
set datafile nocolumnheaders
