/* The reference: a plain row-scan backtracker with (left, top) candidate lists.

   A benchmark baseline for the physical limit of this search, never a part of
   edgematch. Reads from stdin:
       rows cols codes border all
       partner[0..codes-1]
       rows*cols lines of N E S W
   codes are 0..codes-1, border is a code or -1, all is 0 (first solution) or 1.
   Prints: nodes seconds solutions
*/
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct { int tile, east, south; } Candidate;

static int rows, cols, cells, codes, border, all_solutions;
static int *partner, *used, *east, *south, *start;
static Candidate *candidates;
static long long nodes, solutions;

static int place(int cell) {
    if (cell == cells) {
        solutions++;
        return !all_solutions;
    }
    int any = codes;  /* the key for "no constraint" */
    int top = cell >= cols ? partner[south[cell - cols]] : (border >= 0 ? border : any);
    int left = cell % cols ? partner[east[cell - 1]] : (border >= 0 ? border : any);
    int key = top * (codes + 1) + left;
    int last_col = cell % cols == cols - 1, last_row = cell >= cells - cols;
    for (int j = start[key]; j < start[key + 1]; j++) {
        Candidate c = candidates[j];
        if (used[c.tile]) continue;
        if (border >= 0 && ((last_col && c.east != border) || (last_row && c.south != border)))
            continue;
        nodes++;
        used[c.tile] = 1;
        east[cell] = c.east;
        south[cell] = c.south;
        if (place(cell + 1)) return 1;
        used[c.tile] = 0;
    }
    return 0;
}

int main(void) {
    if (scanf("%d %d %d %d %d", &rows, &cols, &codes, &border, &all_solutions) != 5) return 2;
    cells = rows * cols;
    int keys = (codes + 1) * (codes + 1);
    partner = malloc(sizeof(int) * codes);
    for (int i = 0; i < codes; i++)
        if (scanf("%d", &partner[i]) != 1) return 2;
    int (*tiles)[4] = malloc(sizeof(int[4]) * cells);
    for (int t = 0; t < cells; t++)
        for (int k = 0; k < 4; k++)
            if (scanf("%d", &tiles[t][k]) != 1) return 2;
    /* every turn of every tile, filed under its exact (top, left) and the wildcards */
    int *count = calloc(keys + 1, sizeof(int));
    start = calloc(keys + 1, sizeof(int));
    candidates = malloc(sizeof(Candidate) * cells * 16);
    for (int pass = 0; pass < 2; pass++) {
        int fill[keys];
        for (int k = 0; k < keys; k++) fill[k] = start[k];
        for (int t = 0; t < cells; t++)
            for (int q = 0; q < 4; q++) {
                int n = tiles[t][(4 - q) % 4], e = tiles[t][(5 - q) % 4];
                int s = tiles[t][(6 - q) % 4], w = tiles[t][(7 - q) % 4];
                int tops[2] = {n, codes}, lefts[2] = {w, codes};
                for (int a = 0; a < 2; a++)
                    for (int b = 0; b < 2; b++) {
                        int key = tops[a] * (codes + 1) + lefts[b];
                        if (pass == 0) count[key]++;
                        else candidates[fill[key]++] = (Candidate){t, e, s};
                    }
            }
        if (pass == 0)
            for (int k = 0; k < keys; k++) start[k + 1] = start[k] + count[k];
    }
    used = calloc(cells, sizeof(int));
    east = calloc(cells, sizeof(int));
    south = calloc(cells, sizeof(int));
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    place(0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%lld %.6f %lld\n", nodes, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec),
           solutions);
    return 0;
}
