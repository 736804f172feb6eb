int area(int w, int h);
