class SQD:
    def sum_squares(self, n):
        return sum(i * i for i in range(1, n + 1))

#--------------:
print(SQD().sum_squares(3) == 14)
print(SQD().sum_squares(0) == 0)
