// Does not parse.
int broken( { return 0; }
